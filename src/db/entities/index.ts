export { Organization } from './organization.entity.ts';
export { Application } from './application.entity.ts';
export { Tenant } from './tenant.entity.ts';
export { Setting } from './setting.entity.ts';
export { User } from './user.entity.ts';
export { ApiKey } from './api-key.entity.ts';
export { AuthProvider } from './auth-provider.entity.ts';
export { Domain } from './domain.entity.ts';
export { AuditLog } from './audit-log.entity.ts';
export { SigningKey } from './signing-key.entity.ts';
export { OAuthClient } from './oauth-client.entity.ts';

import { Organization } from './organization.entity.ts';
import { Application } from './application.entity.ts';
import { Tenant } from './tenant.entity.ts';
import { Setting } from './setting.entity.ts';
import { User } from './user.entity.ts';
import { ApiKey } from './api-key.entity.ts';
import { AuthProvider } from './auth-provider.entity.ts';
import { Domain } from './domain.entity.ts';
import { AuditLog } from './audit-log.entity.ts';
import { SigningKey } from './signing-key.entity.ts';
import { OAuthClient } from './oauth-client.entity.ts';

export const ENTITIES = [Organization, Application, Tenant, Setting, User, ApiKey, AuthProvider, Domain, AuditLog, SigningKey, OAuthClient];
