import { describe, expect, it } from 'vitest';
import { retryDelayMs, scrubbed } from '../../src/domain/email/deliver.ts';
import { signV4 } from '../../src/domain/email/transports/sigv4.ts';
import { DeliveryError } from '../../src/domain/email/transports/transport.ts';

/** AWS's SigV4 test suite (aws-sig-v4-test-suite): its credentials, time and scope. */
const SUITE = {
  region: 'us-east-1',
  service: 'service',
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  now: new Date('2015-08-30T12:36:00Z'),
  headers: {},
  body: '',
};

describe('SigV4', () => {
  it.each([
    ['get-vanilla', 'GET', 'https://example.amazonaws.com/', '5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31'],
    ['post-vanilla', 'POST', 'https://example.amazonaws.com/', '5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b'],
    ['get-vanilla-query-order-key-case', 'GET', 'https://example.amazonaws.com/?Param2=value2&Param1=value1', 'b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500'],
  ])('signs the suite’s %s request as AWS does', (_, method, url, signature) => {
    const signed = signV4({ ...SUITE, method, url: new URL(url) });
    expect(signed['x-amz-date']).toBe('20150830T123600Z');
    expect(signed.authorization).toBe(
      `AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=${signature}`,
    );
  });
});

describe('retry delays', () => {
  it('double from the base with each attempt, jittered within the upper half, and stop growing at an hour', () => {
    expect([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts, 1_000, () => 1))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect([1, 2, 3, 4].map((attempts) => retryDelayMs(attempts, 1_000, () => 0))).toEqual([500, 1_000, 2_000, 4_000]);
    expect(retryDelayMs(40, 1_000, () => 1)).toBe(3_600_000);
  });
});

describe('a provider’s error as the outbox keeps it', () => {
  it('names no secret, and is bounded', () => {
    expect(scrubbed(new DeliveryError('sendgrid: HTTP 401', true, ' key SG.abc is not valid (SG.abc)'), ['SG.abc'])).toBe('sendgrid: HTTP 401 key [secret] is not valid ([secret])');
    expect(scrubbed(new DeliveryError('x'.repeat(5_000), true), []).length).toBe(1_000);
    // The service's own words are not the provider's echo: a secret equal to one of them is not told by its place.
    const ours = 'smtp: 127.1 resolves to 127.0.0.1, an internal address; the service does not connect there';
    expect(scrubbed(new DeliveryError(ours, true), ['internal'])).toBe(ours);
  });
});
