import { createServer, Socket, type AddressInfo, type Server } from 'node:net';

/** Where a URL without a port points, by scheme. */
const DEFAULT_PORTS: Record<string, number> = { 'redis:': 6379, 'postgres:': 5432, 'postgresql:': 5432 };

/**
 * A TCP proxy to a real server (Redis, PostgreSQL) that a test can break as networks do: `cut` closes every connection
 * and refuses new ones (the server stopped), `freeze` stops forwarding while keeping every connection, new ones
 * included, open (a partition, a frozen server: nothing fails, nothing answers). `open` and `thaw` undo them; `heal`
 * undoes a freeze for new connections only.
 */
export class TcpLink {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private readonly pairs = new Set<[Socket, Socket]>();
  /** The pairs piped now: piping one twice would send every byte twice, which breaks any protocol. */
  private readonly flowing = new Set<[Socket, Socket]>();
  private readonly target: URL;
  private frozen = false;
  port = 0;

  constructor(target: URL) {
    this.target = target;
  }

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = new Socket().connect(Number(this.target.port || DEFAULT_PORTS[this.target.protocol]), this.target.hostname);
      const pair: [Socket, Socket] = [client, upstream];
      this.pairs.add(pair);
      for (const socket of pair) {
        this.sockets.add(socket);
        socket.on('close', () => {
          this.sockets.delete(socket);
          this.pairs.delete(pair);
          this.flowing.delete(pair);
        });
        socket.on('error', () => undefined);
      }
      if (this.frozen) this.stop(pair);
      else this.forward(pair);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async cut(): Promise<void> {
    const closed = new Promise((resolve) => this.server?.close(resolve));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  freeze(): void {
    this.frozen = true;
    for (const pair of this.pairs) this.stop(pair);
  }

  /**
   * New connections work again, while those the freeze caught stay frozen (their packets lost, as after a failover or a
   * NAT that forgot them) until `thaw`.
   */
  heal(): void {
    this.frozen = false;
  }

  thaw(): void {
    this.frozen = false;
    for (const pair of this.pairs) this.forward(pair);
  }

  private forward(pair: [Socket, Socket]): void {
    if (this.flowing.has(pair)) return;
    this.flowing.add(pair);
    const [client, upstream] = pair;
    client.pipe(upstream);
    upstream.pipe(client);
  }

  /** What arrives meanwhile stays in the sockets' buffers, and is forwarded on `thaw`, as TCP delivers it after a partition. */
  private stop(pair: [Socket, Socket]): void {
    this.flowing.delete(pair);
    const [client, upstream] = pair;
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  }
}

/** The proxy in front of Redis (the name the Redis tests know it by). */
export { TcpLink as RedisLink };
