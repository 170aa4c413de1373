import { createServer, Socket, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TcpLink } from '../support/redis-link.ts';

/** The proxy the outage suites break connections with: undoing a break twice must not forward a byte twice. */
let echo: Server;
let link: TcpLink;

beforeAll(async () => {
  echo = createServer((socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  link = new TcpLink(new URL(`tcp://127.0.0.1:${(echo.address() as AddressInfo).port}`));
  await link.open();
});
afterAll(async () => {
  await link.cut();
  await new Promise((resolve) => echo.close(resolve));
});

async function connect(): Promise<Socket> {
  const socket = new Socket();
  await new Promise<void>((resolve) => socket.connect(link.port, '127.0.0.1', resolve));
  return socket;
}

/** What the socket receives within `ms`. */
async function received(socket: Socket, ms: number): Promise<string> {
  let text = '';
  const collect = (chunk: Buffer) => (text += chunk.toString());
  socket.on('data', collect);
  await new Promise((resolve) => setTimeout(resolve, ms));
  socket.off('data', collect);
  return text;
}

it('forwards each byte once through a freeze, a heal and a thaw repeated', async () => {
  const caught = await connect();
  link.freeze();
  caught.write('held');
  expect(await received(caught, 100)).toBe('');
  link.heal();
  // Opened after the heal: forwarded already when the thaw comes, twice.
  const opened = await connect();
  link.thaw();
  link.thaw();
  expect(await received(caught, 200)).toBe('held');
  opened.write('once');
  expect(await received(opened, 200)).toBe('once');
  caught.destroy();
  opened.destroy();
});
