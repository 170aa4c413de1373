import { describe, expect, it } from 'vitest';
import { dnsLookupsWaiting, isInternalAddress, isLocalName, mayName, resolveHost } from '../../src/domain/address-guard.ts';
import { publicAddressOf } from '../../src/domain/email/transports/smtp.ts';
import { DeliveryError } from '../../src/domain/email/transports/transport.ts';

describe('isInternalAddress', () => {
  it('holds loopback, private, shared, link-local (metadata), reserved and multicast ranges, in both families', () => {
    for (const address of [
      '127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.64.0.1',
      '0.0.0.0', '224.0.0.1', '255.255.255.255', '198.18.0.1', '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1',
      '::ffff:127.0.0.1', '::ffff:169.254.169.254', '::ffff:7f00:1', '::ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe',
    ]) {
      expect(isInternalAddress(address), address).toBe(true);
    }
  });

  it('holds IPv6 by what it reaches: an IPv4 address (mapped, IPv4-compatible, NAT64, 6to4) by that address', () => {
    for (const address of [
      '::ffff:10.0.0.5', '::ffff:c0a8:101', '::127.0.0.1', '::a00:5', '64:ff9b::a00:5', '64:ff9b::7f00:1', '64:ff9b::192.168.1.1', '64:ff9b:1::1',
      '2002:a00:5::1', '2002:7f00:1::', '2002:c000:0201::1', '2001::1', '2001:db8::25', '3fff::1', '5f00::1', '100:0:0:1::7', 'febf:ffff::1', 'fec0::1', 'fe80::1%eth0',
    ]) {
      expect(isInternalAddress(address), address).toBe(true);
    }
    for (const address of ['64:ff9b::5db8:d70e', '64:ff9b::8.8.8.8', '2002:5db8:d70e::1', '2a00:1450:4001::1b', '2001:200::1', '2001:4860:4860::8888']) {
      expect(isInternalAddress(address), address).toBe(false);
    }
  });

  it('lets public addresses through, and is not fooled by neighbours of the ranges', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '172.15.255.255', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isInternalAddress(address), address).toBe(false);
    }
  });

  it('names localhost and the names under it as local', () => {
    expect(['localhost', 'LOCALHOST.', 'mail.localhost'].map(isLocalName)).toEqual([true, true, true]);
    expect(['localhost.example.com', 'mylocalhost'].map(isLocalName)).toEqual([false, false]);
  });
});

describe('publicAddressOf', () => {
  it('answers a public address as it is, and refuses an internal one for good', async () => {
    expect(await publicAddressOf('8.8.8.8')).toBe('8.8.8.8');
    const refused = await publicAddressOf('169.254.169.254').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DeliveryError);
    expect(refused).toMatchObject({ permanent: true, message: expect.stringContaining('169.254.169.254') });
  });

  it('takes an IPv6 address as it is, public or refused for good when internal', async () => {
    expect(await publicAddressOf('2a00:1450:4001::1b')).toBe('2a00:1450:4001::1b');
    expect(await publicAddressOf('64:ff9b::5db8:d70e')).toBe('64:ff9b::5db8:d70e');
    for (const host of ['::1', 'fd00::25', '::ffff:169.254.169.254', '64:ff9b::a9fe:a9fe', '2001:db8::25']) {
      await expect(publicAddressOf(host), host).rejects.toMatchObject({ permanent: true, message: expect.stringContaining(`resolves to ${host}, an internal address`) });
    }
  });

  it('refuses what a name resolves to when it is internal: inet_aton forms and localhost', async () => {
    for (const host of ['127.1', '2130706433', 'localhost']) {
      await expect(publicAddressOf(host), host).rejects.toMatchObject({ permanent: true });
    }
  });
});

describe('mayName and resolveHost', () => {
  it('as saved: an internal address or a localhost name is out of reach; loopback alone opens 127/8, ::1 and localhost; any opens all', () => {
    const hosts = ['127.0.0.1', '[::1]', '[::ffff:7f00:1]', 'localhost', '10.0.0.1', '0.0.0.0', '[fd00::1]', 'idp.example.com', '8.8.8.8'];
    expect(hosts.filter((host) => mayName(host, 'none'))).toEqual(['idp.example.com', '8.8.8.8']);
    expect(hosts.filter((host) => mayName(host, 'loopback'))).toEqual(['127.0.0.1', '[::1]', '[::ffff:7f00:1]', 'localhost', 'idp.example.com', '8.8.8.8']);
    expect(hosts.filter((host) => mayName(host, 'any'))).toEqual(hosts);
  });

  it('at connect time: what a name resolves to, refused by the same reach', async () => {
    expect(await resolveHost('localhost', 'none')).toEqual({ refused: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) });
    expect(await resolveHost('127.1', 'loopback')).toEqual({ address: '127.0.0.1' });
    expect(await resolveHost('0.0.0.0', 'loopback')).toEqual({ refused: '0.0.0.0' });
    expect(await resolveHost('10.0.0.1', 'any')).toEqual({ address: '10.0.0.1' });
    expect(await resolveHost('name.invalid', 'none')).toHaveProperty('unresolved');
  });

  it('asks the system resolver (libuv threads Argon2 needs too) at most 2 names at once, the others waiting their turn', async () => {
    const asked = Array.from({ length: 6 }, () => resolveHost('localhost', 'loopback'));
    expect(dnsLookupsWaiting()).toBe(4);
    for (const resolution of await Promise.all(asked)) expect(resolution).toEqual({ address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) });
    expect(dnsLookupsWaiting()).toBe(0);
  });
});
