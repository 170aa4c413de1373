import dns2 from 'dns2';

const { Packet } = dns2;

/** What the test zone holds for a name: TXT values (each split in chunks of at most 255 bytes, as DNS carries them) and a CNAME. */
export interface ZoneEntry {
  txt?: string[];
  cname?: string;
  /** An error the server answers instead (2: SERVFAIL, 5: REFUSED). */
  rcode?: number;
}

export interface TestDnsServer {
  /** For DNS_SERVERS: `127.0.0.1:{port}`. */
  readonly address: string;
  /** The zone, by lower-case name; the test changes it as it goes. */
  readonly zone: Map<string, ZoneEntry>;
  close(): Promise<void>;
}

const chunks = (value: string) => value.match(/[\s\S]{1,255}/g) ?? [''];

/** A real DNS server over UDP (dns2) answering TXT and CNAME questions from `zone`, NXDOMAIN for a name it lacks. */
export async function startDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, ZoneEntry>();
  const server = dns2.createUDPServer((request, send) => {
    const response = Packet.createResponseFromRequest(request);
    const question = request.questions[0];
    const entry = question === undefined ? undefined : zone.get(question.name.toLowerCase());
    if (entry?.rcode !== undefined) {
      response.header.rcode = entry.rcode;
    } else if (question !== undefined && entry !== undefined) {
      const answer = (fields: Partial<dns2.Packet.Resource>) => new Packet.Resource({ name: question.name, class: Packet.CLASS.IN, ttl: 1, ...fields });
      if (question.type === Packet.TYPE.TXT) for (const value of entry.txt ?? []) response.answers.push(answer({ type: Packet.TYPE.TXT, data: chunks(value) }));
      if (question.type === Packet.TYPE.CNAME && entry.cname !== undefined) response.answers.push(answer({ type: Packet.TYPE.CNAME, domain: entry.cname }));
    } else {
      response.header.rcode = 3;
    }
    void send(response);
  });
  await server.listen(0, '127.0.0.1');
  const { port } = server.address();
  return { address: `127.0.0.1:${port}`, zone, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
