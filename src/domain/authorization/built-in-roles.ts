import type { EntityManager } from '@mikro-orm/postgresql';
import { BUILT_IN_ROLES, type BuiltInRole } from '../../auth/permissions.ts';
import { Role } from '../../db/entities/index.ts';
import { newId } from '../../ids.ts';

export function createBuiltInRoles(em: EntityManager, applicationId: string): void {
  for (const key of Object.keys(BUILT_IN_ROLES) as BuiltInRole[]) {
    const { name, permissions } = BUILT_IN_ROLES[key];
    em.create(Role, { applicationId, id: newId(), tenantId: null, key, name, description: '', permissions: [...permissions], builtIn: true });
  }
}
