import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '../../src/auth/permissions.ts';
import { builtInPermissionId } from '../../src/domain/authorization/permissions.ts';

describe('built-in permission ids', () => {
  it('are pinned: clients may store them, so a release never changes one', () => {
    expect(builtInPermissionId('users:read')).toBe('d8192f62-436a-7ba1-917a-1658c1a59700');
  });

  it('are SHA-256 of the key, shaped as a UUIDv7 (version 7, RFC variant), one per permission', () => {
    const ids = ALL_PERMISSIONS.map(builtInPermissionId);
    for (const [i, id] of ids.entries()) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const hash = createHash('sha256').update(`gatehouse:permission:${ALL_PERMISSIONS[i]}`).digest('hex');
      const hex = id.replaceAll('-', '');
      // Only the version nibble and the variant's two bits differ from the hash.
      expect(hex.slice(0, 12) + hex.slice(13, 16) + hex.slice(17)).toBe(hash.slice(0, 12) + hash.slice(13, 16) + hash.slice(17, 32));
    }
    expect(new Set(ids).size).toBe(ids.length);
  });
});
