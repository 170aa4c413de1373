import { generateKeyPairSync } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { signAppleClientSecret } from '../../src/auth/jwt.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('Apple client secret', () => {
  it('is an ES256 JWT of the team for the Services ID, with Apple as audience, signed by the stored key', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const secret = await signAppleClientSecret({ teamId: 'TEAM123456', clientId: 'com.example.signin', keyId: 'KEY1234567', privateKey: pem }, 600);
    expect(decodeProtectedHeader(secret)).toEqual({ alg: 'ES256', kid: 'KEY1234567' });
    const { payload } = await jwtVerify(secret, publicKey, { issuer: 'TEAM123456', subject: 'com.example.signin', audience: 'https://appleid.apple.com' });
    expect(payload.exp! - payload.iat!).toBe(600);
  });
});

describe('upstream settings', () => {
  it('GATEHOUSE_ALLOW_LOOPBACK_UPSTREAMS and UPSTREAM_ALLOW_PRIVATE_HOSTS are off unless true; GitHub is github.com unless GITHUB_URL and GITHUB_API_URL say otherwise', () => {
    expect(loadConfig({}).upstreams).toEqual({ allowLoopback: false, allowPrivateHosts: false, githubUrl: 'https://github.com', githubApiUrl: 'https://api.github.com' });
    const set = loadConfig({
      GATEHOUSE_ALLOW_LOOPBACK_UPSTREAMS: 'true',
      UPSTREAM_ALLOW_PRIVATE_HOSTS: 'true',
      GITHUB_URL: 'https://github.example.com/',
      GITHUB_API_URL: 'https://github.example.com/api/v3',
    });
    expect(set.upstreams).toEqual({ allowLoopback: true, allowPrivateHosts: true, githubUrl: 'https://github.example.com', githubApiUrl: 'https://github.example.com/api/v3' });
    expect(() => loadConfig({ GATEHOUSE_ALLOW_LOOPBACK_UPSTREAMS: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ UPSTREAM_ALLOW_PRIVATE_HOSTS: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig({ GITHUB_API_URL: 'github' })).toThrow(ConfigError);
  });
});
