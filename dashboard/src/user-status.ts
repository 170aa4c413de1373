import type { UserStatus } from './operations.ts';

export const STATUS_LABEL: Record<UserStatus, string> = { active: 'Active', suspended: 'Suspended', locked: 'Locked' };
