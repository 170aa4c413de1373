import type { Resolvers } from '../src/generated/graphql.ts';
import {
  createApplication,
  deleteApplication,
  getApplication,
  listApplications,
  tenancyConfigOf,
  updateApplication,
} from '../src/domain/applications/applications.ts';
import { applicationStats } from '../src/domain/applications/stats.ts';
import { listManagedApplications } from '../src/domain/console/console.ts';

export const applicationResolvers: Resolvers = {
  Query: {
    managedApplications: async (_, _args, ctx) => listManagedApplications(await ctx.scope()),
    applications: async (_, args, ctx) => listApplications(await ctx.scope(), args),
    application: async (_, { appId }, ctx) => getApplication(await ctx.scope({ applicationId: appId }), appId),
    applicationStats: async (_, { appId }, ctx) => applicationStats(await ctx.scope({ applicationId: appId })),
  },
  Mutation: {
    createApplication: async (_, { input }, ctx) => createApplication(await ctx.scope(), input),
    updateApplication: async (_, { appId, input }, ctx) =>
      updateApplication(await ctx.scope({ applicationId: appId }), appId, input),
    deleteApplication: async (_, { appId }, ctx) => deleteApplication(await ctx.scope({ applicationId: appId }), appId),
  },
  Application: {
    tenancyConfig: (application) => tenancyConfigOf(application),
    initialApiKey: (application) => ('initialApiKey' in application ? (application.initialApiKey as never) : null),
  },
};
