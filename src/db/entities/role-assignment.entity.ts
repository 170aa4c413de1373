import { defineEntity, p } from '@mikro-orm/core';
import { tenantOwnedColumns, tenantOwnedFilters } from '../owned.ts';

/** `operator`: a user of the organization's console application, managing this application (src/domain/console/). */
export const ROLE_SUBJECT_TYPES = ['user', 'm2m_credential', 'api_key', 'operator'] as const;
export type RoleSubjectType = (typeof ROLE_SUBJECT_TYPES)[number];

/** A role held by a user, M2M credential, API key or operator: in one tenant, or (`tenantId` null) in every tenant. */
const RoleAssignmentSchema = defineEntity({
  name: 'RoleAssignment',
  tableName: 'role_assignment',
  filters: tenantOwnedFilters({ inheritsApplicationRows: true }),
  properties: {
    ...tenantOwnedColumns(),
    roleId: p.uuid(),
    subjectType: p.string().$type<RoleSubjectType>(),
    subjectId: p.uuid(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});

export class RoleAssignment extends RoleAssignmentSchema.class {}
RoleAssignmentSchema.setClass(RoleAssignment);
