/**
 * The REST API's types, generated from its OpenAPI document by openapi-typescript: `npm run client:generate`.
 * Do not edit: the suite fails when it no longer matches the document (test/api/typed-client.test.ts).
 */

export interface paths {
    "/organizations/{orgId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the organization
         * @description The organization that owns the credentials' application. Any other id: `not_found`.
         *
         *     Requires `organizations:read`. Application-wide credentials only.
         */
        get: operations["GetOrganization"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Rename the organization
         * @description Renames the organization. The organization's changes (these four) take credentials that cover all of it: its
         *     console's (the dashboard's operators), or an application's while it is the organization's only one; else 403.
         *
         *     Requires `organizations:write`. Application-wide credentials only.
         */
        patch: operations["UpdateOrganization"];
        trace?: never;
    };
    "/organizations/{orgId}/billing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Replace the organization’s billing settings
         * @description Replaces the organization's billing settings (validated; recorded in the audit log; no payment provider is told).
         *
         *     Requires `organizations:write`. Application-wide credentials only.
         */
        put: operations["PutOrganizationBilling"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/organizations/{orgId}/deactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deactivate the organization: its applications’ sign-ins and management requests are refused
         * @description Deactivates the organization: every sign-in and management request of its applications is refused until it is
         *     reactivated, on every instance at once. Nothing is deleted. Deactivating it again changes nothing and records nothing.
         *
         *     Requires `organizations:delete`. Application-wide credentials only.
         */
        post: operations["DeactivateOrganization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/organizations/{orgId}/reactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reactivate the organization (the one request served while deactivated)
         * @description Reactivates the organization: served while it is deactivated (as is a retry of the deactivation, which then changes
         *     nothing). Everything works again as before.
         *
         *     Requires `organizations:delete`. Application-wide credentials only.
         */
        post: operations["ReactivateOrganization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/managed-applications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the applications the signed-in operator manages
         * @description The applications of the organization in which the signed-in operator holds a role: for a Bearer token of a user
         *     of the organization's console application, sent without `X-Gatehouse-Application` (the dashboard's first call).
         *     Any other credentials get an empty list: they are no operators.
         *
         *     No permission.
         */
        get: operations["ListManagedApplications"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List applications
         * @description The applications the credentials can reach (an API key reaches its own application).
         *
         *     Requires `applications:read`.
         */
        get: operations["ListApplications"];
        put?: never;
        /**
         * Create an application
         * @description Creates an application in the credentials' organization, with an initial API key of the creator's permissions.
         *
         *     Requires `applications:write`. Application-wide credentials only.
         */
        post: operations["CreateApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an application
         * @description One application.
         *
         *     Requires `applications:read`.
         */
        get: operations["GetApplication"];
        put?: never;
        post?: never;
        /**
         * Delete an application
         * @description Deletes an application and everything it owns.
         *
         *     Requires `applications:delete`. Application-wide credentials only.
         */
        delete: operations["DeleteApplication"];
        options?: never;
        head?: never;
        /**
         * Update an application and its tenancy configuration
         * @description Updates an application, including its tenancy configuration. Returns the whole application.
         *
         *     Requires `applications:write`. Application-wide credentials only.
         */
        patch: operations["UpdateApplication"];
        trace?: never;
    };
    "/applications/{appId}/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An application’s users, tenants, active users and sign-ins (computed at most a minute ago)
         * @description An application's figures (application-wide credentials only), computed at most a minute ago.
         *
         *     Requires `applications:read`. Application-wide credentials only.
         */
        get: operations["GetApplicationStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List tenants
         * @description The tenants of an application (a tenant-scoped credential sees only its own).
         *
         *     Requires `tenants:read`.
         */
        get: operations["ListTenants"];
        put?: never;
        /**
         * Create a tenant
         * @description Creates a tenant in a multi-tenant application.
         *
         *     Requires `tenants:write`. Application-wide credentials only.
         */
        post: operations["CreateTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a tenant
         * @description One tenant.
         *
         *     Requires `tenants:read`.
         */
        get: operations["GetTenant"];
        put?: never;
        post?: never;
        /**
         * Delete a tenant
         * @description Deletes a tenant with its overrides, its tenant-scoped keys and the users of its isolated pool.
         *
         *     Requires `tenants:delete`. Application-wide credentials only.
         */
        delete: operations["DeleteTenant"];
        options?: never;
        head?: never;
        /**
         * Update a tenant
         * @description Renames a tenant or changes its slug.
         *
         *     Requires `tenants:write`.
         */
        patch: operations["UpdateTenant"];
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/configuration": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the tenant’s effective configuration of the four tenancy features, each with its source
         * @description A tenant's effective configuration of branding, e-mail templates, e-mail provider and auth stack.
         *
         *     Requires `tenants:read`, `branding:read`, `email:read`, `policies:read`, `auth_providers:read`, `domains:read`.
         */
        get: operations["GetTenantConfiguration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users (a tenant scope lists its members)
         * @description The users of the application, or of one tenant: in a tenant scope (path or credentials) only that tenant's
         *     members are listed (the tenant path form is the filter by tenant: no endpoint takes a `tenantId` query parameter).
         *
         *     Requires `users:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["ListUsers"];
        put?: never;
        /**
         * Create a user
         * @description Creates a user. In a tenant scope the user becomes a member of that tenant.
         *
         *     Requires `users:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["CreateUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users (a tenant scope lists its members)
         * @description The users of the application, or of one tenant: in a tenant scope (path or credentials) only that tenant's
         *     members are listed (the tenant path form is the filter by tenant: no endpoint takes a `tenantId` query parameter).
         *
         *     Requires `users:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["ListUsersInApplication"];
        put?: never;
        /**
         * Create a user
         * @description Creates a user. In a tenant scope the user becomes a member of that tenant.
         *
         *     Requires `users:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["CreateUserInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List users (a tenant scope lists its members)
         * @description The users of the application, or of one tenant: in a tenant scope (path or credentials) only that tenant's
         *     members are listed (the tenant path form is the filter by tenant: no endpoint takes a `tenantId` query parameter).
         *
         *     Requires `users:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["ListUsersInTenant"];
        put?: never;
        /**
         * Create a user
         * @description Creates a user. In a tenant scope the user becomes a member of that tenant.
         *
         *     Requires `users:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["CreateUserInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a user
         * @description One user; a user outside the scope's application or tenant is `not_found`.
         *
         *     Requires `users:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetUser"];
        put?: never;
        post?: never;
        /**
         * Delete a user (a shared-pool user in a tenant scope: leave that tenant)
         * @description Deletes a user. With tenant-scoped credentials or path in `shared` auth isolation only the user's membership of
         *     that tenant is removed (the identity stays for its other tenants); otherwise the user is deleted. A console user who
         *     is the last application-wide `app_admin` operator who can act (not suspended) of an application: 422 (field
         *     `userId`, a `details` entry per such application), as for `deleteRoleAssignment`.
         *
         *     Requires `users:delete`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        delete: operations["DeleteUser"];
        options?: never;
        head?: never;
        /**
         * Update a user
         * @description Changes a user's e-mail (409 `already_exists` when another user of the pool has it), name, metadata, password or (in `shared` auth isolation) tenant memberships. A tenant scope may
         *     not change memberships, nor the identity of a `shared` user who also belongs to another tenant (403). A new password
         *     or e-mail takes credentials holding all the user holds (their roles, and a console user's as an operator): else 403.
         *
         *     Requires `users:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        patch: operations["UpdateUser"];
        trace?: never;
    };
    "/applications/{appId}/users/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a user
         * @description One user; a user outside the scope's application or tenant is `not_found`.
         *
         *     Requires `users:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetUserInApplication"];
        put?: never;
        post?: never;
        /**
         * Delete a user (a shared-pool user in a tenant scope: leave that tenant)
         * @description Deletes a user. With tenant-scoped credentials or path in `shared` auth isolation only the user's membership of
         *     that tenant is removed (the identity stays for its other tenants); otherwise the user is deleted. A console user who
         *     is the last application-wide `app_admin` operator who can act (not suspended) of an application: 422 (field
         *     `userId`, a `details` entry per such application), as for `deleteRoleAssignment`.
         *
         *     Requires `users:delete`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        delete: operations["DeleteUserInApplication"];
        options?: never;
        head?: never;
        /**
         * Update a user
         * @description Changes a user's e-mail (409 `already_exists` when another user of the pool has it), name, metadata, password or (in `shared` auth isolation) tenant memberships. A tenant scope may
         *     not change memberships, nor the identity of a `shared` user who also belongs to another tenant (403). A new password
         *     or e-mail takes credentials holding all the user holds (their roles, and a console user's as an operator): else 403.
         *
         *     Requires `users:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        patch: operations["UpdateUserInApplication"];
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/users/{userId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a user
         * @description One user; a user outside the scope's application or tenant is `not_found`.
         *
         *     Requires `users:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetUserInTenant"];
        put?: never;
        post?: never;
        /**
         * Delete a user (a shared-pool user in a tenant scope: leave that tenant)
         * @description Deletes a user. With tenant-scoped credentials or path in `shared` auth isolation only the user's membership of
         *     that tenant is removed (the identity stays for its other tenants); otherwise the user is deleted. A console user who
         *     is the last application-wide `app_admin` operator who can act (not suspended) of an application: 422 (field
         *     `userId`, a `details` entry per such application), as for `deleteRoleAssignment`.
         *
         *     Requires `users:delete`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        delete: operations["DeleteUserInTenant"];
        options?: never;
        head?: never;
        /**
         * Update a user
         * @description Changes a user's e-mail (409 `already_exists` when another user of the pool has it), name, metadata, password or (in `shared` auth isolation) tenant memberships. A tenant scope may
         *     not change memberships, nor the identity of a `shared` user who also belongs to another tenant (403). A new password
         *     or e-mail takes credentials holding all the user holds (their roles, and a console user's as an operator): else 403.
         *
         *     Requires `users:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        patch: operations["UpdateUserInTenant"];
        trace?: never;
    };
    "/users/{userId}/unlock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unlock a user locked by the lockout policy
         * @description Lifts a lock the lockout policy put on a user, a timed one early or one without an end: the user is `active` again
         *     and their count of failed sign-ins starts over. A user who is not locked is returned as they are, unchanged (a
         *     suspended user stays suspended). A `shared` user's lock is one for all their tenants: a tenant scope lifts it only
         *     for a user who belongs to no other tenant (403).
         *
         *     Requires `users:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["UnlockUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/users/{userId}/unlock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unlock a user locked by the lockout policy
         * @description Lifts a lock the lockout policy put on a user, a timed one early or one without an end: the user is `active` again
         *     and their count of failed sign-ins starts over. A user who is not locked is returned as they are, unchanged (a
         *     suspended user stays suspended). A `shared` user's lock is one for all their tenants: a tenant scope lifts it only
         *     for a user who belongs to no other tenant (403).
         *
         *     Requires `users:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["UnlockUserInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/users/{userId}/unlock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Unlock a user locked by the lockout policy
         * @description Lifts a lock the lockout policy put on a user, a timed one early or one without an end: the user is `active` again
         *     and their count of failed sign-ins starts over. A user who is not locked is returned as they are, unchanged (a
         *     suspended user stays suspended). A `shared` user's lock is one for all their tenants: a tenant scope lifts it only
         *     for a user who belongs to no other tenant (403).
         *
         *     Requires `users:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["UnlockUserInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/mfa-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Remove every MFA factor and recovery code of a user
         * @description Removes every MFA factor and recovery code of a user (a lost phone): their next sign-in asks for no second factor,
         *     or enrols one again where the MFA policy requires it. A user without any is returned unchanged. A `shared` user's
         *     factors are one for all their tenants: a tenant scope resets only a user who belongs to no other tenant (403). It
         *     takes credentials holding all the user holds (their roles, and a console user's as an operator): else 403.
         *
         *     Requires `users:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["ResetUserMfa"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/users/{userId}/mfa-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Remove every MFA factor and recovery code of a user
         * @description Removes every MFA factor and recovery code of a user (a lost phone): their next sign-in asks for no second factor,
         *     or enrols one again where the MFA policy requires it. A user without any is returned unchanged. A `shared` user's
         *     factors are one for all their tenants: a tenant scope resets only a user who belongs to no other tenant (403). It
         *     takes credentials holding all the user holds (their roles, and a console user's as an operator): else 403.
         *
         *     Requires `users:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["ResetUserMfaInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/users/{userId}/mfa-reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Remove every MFA factor and recovery code of a user
         * @description Removes every MFA factor and recovery code of a user (a lost phone): their next sign-in asks for no second factor,
         *     or enrols one again where the MFA policy requires it. A user without any is returned unchanged. A `shared` user's
         *     factors are one for all their tenants: a tenant scope resets only a user who belongs to no other tenant (403). It
         *     takes credentials holding all the user holds (their roles, and a console user's as an operator): else 403.
         *
         *     Requires `users:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["ResetUserMfaInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/suspend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Suspend a user: no sign-in, sessions and tokens revoked
         * @description Suspends a user: they cannot sign in by any method, their grants, tokens, browser sessions and the links and codes
         *     mailed to them are revoked for good, and their Bearer tokens and user-bound API keys answer 401 until they are activated. Suspending a suspended user
         *     changes nothing. A `shared` user's account is one for all their tenants: a tenant scope suspends only a user who
         *     belongs to no other tenant (403). A console user who is the last application-wide `app_admin` operator who can act
         *     (not suspended) of an application: 422 (field `userId`, a `details` entry per such application).
         *
         *     Requires `users:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["SuspendUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/users/{userId}/suspend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Suspend a user: no sign-in, sessions and tokens revoked
         * @description Suspends a user: they cannot sign in by any method, their grants, tokens, browser sessions and the links and codes
         *     mailed to them are revoked for good, and their Bearer tokens and user-bound API keys answer 401 until they are activated. Suspending a suspended user
         *     changes nothing. A `shared` user's account is one for all their tenants: a tenant scope suspends only a user who
         *     belongs to no other tenant (403). A console user who is the last application-wide `app_admin` operator who can act
         *     (not suspended) of an application: 422 (field `userId`, a `details` entry per such application).
         *
         *     Requires `users:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["SuspendUserInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/users/{userId}/suspend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Suspend a user: no sign-in, sessions and tokens revoked
         * @description Suspends a user: they cannot sign in by any method, their grants, tokens, browser sessions and the links and codes
         *     mailed to them are revoked for good, and their Bearer tokens and user-bound API keys answer 401 until they are activated. Suspending a suspended user
         *     changes nothing. A `shared` user's account is one for all their tenants: a tenant scope suspends only a user who
         *     belongs to no other tenant (403). A console user who is the last application-wide `app_admin` operator who can act
         *     (not suspended) of an application: 422 (field `userId`, a `details` entry per such application).
         *
         *     Requires `users:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["SuspendUserInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Lift a user’s suspension
         * @description Lifts a suspension: the user may sign in again (`locked` still while a lock they had runs, one without an end until
         *     `unlockUser`). What the suspension revoked stays revoked. A user who is not suspended is returned unchanged. The same tenant rule as `suspendUser`.
         *
         *     Requires `users:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["ActivateUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/users/{userId}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Lift a user’s suspension
         * @description Lifts a suspension: the user may sign in again (`locked` still while a lock they had runs, one without an end until
         *     `unlockUser`). What the suspension revoked stays revoked. A user who is not suspended is returned unchanged. The same tenant rule as `suspendUser`.
         *
         *     Requires `users:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["ActivateUserInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/users/{userId}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Lift a user’s suspension
         * @description Lifts a suspension: the user may sign in again (`locked` still while a lock they had runs, one without an end until
         *     `unlockUser`). What the suspension revoked stays revoked. A user who is not suspended is returned unchanged. The same tenant rule as `suspendUser`.
         *
         *     Requires `users:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["ActivateUserInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/upstream-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a user’s upstream (social) accounts
         * @description A user's upstream (social) accounts, oldest first.
         *
         *     Requires `users:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["ListUserUpstreamLinks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/users/{userId}/upstream-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a user’s upstream (social) accounts
         * @description A user's upstream (social) accounts, oldest first.
         *
         *     Requires `users:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["ListUserUpstreamLinksInApplication"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/users/{userId}/upstream-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a user’s upstream (social) accounts
         * @description A user's upstream (social) accounts, oldest first.
         *
         *     Requires `users:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["ListUserUpstreamLinksInTenant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/upstream-links/{linkId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Unlink an upstream account: it no longer signs in as the user
         * @description Removes one of a user's upstream links (`not_found`, field `linkId`, when it is not theirs): that upstream account
         *     no longer signs in as the user. Its next sign-in links again only by an address the upstream verified that the user
         *     holds, or makes a new account where the provider allows sign-up. Sessions it opened stay. The same tenant rule as
         *     `suspendUser`.
         *
         *     Requires `users:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        delete: operations["DeleteUserUpstreamLink"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/users/{userId}/upstream-links/{linkId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Unlink an upstream account: it no longer signs in as the user
         * @description Removes one of a user's upstream links (`not_found`, field `linkId`, when it is not theirs): that upstream account
         *     no longer signs in as the user. Its next sign-in links again only by an address the upstream verified that the user
         *     holds, or makes a new account where the provider allows sign-up. Sessions it opened stay. The same tenant rule as
         *     `suspendUser`.
         *
         *     Requires `users:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        delete: operations["DeleteUserUpstreamLinkInApplication"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/users/{userId}/upstream-links/{linkId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Unlink an upstream account: it no longer signs in as the user
         * @description Removes one of a user's upstream links (`not_found`, field `linkId`, when it is not theirs): that upstream account
         *     no longer signs in as the user. Its next sign-in links again only by an address the upstream verified that the user
         *     holds, or makes a new account where the provider allows sign-up. Sessions it opened stay. The same tenant rule as
         *     `suspendUser`.
         *
         *     Requires `users:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        delete: operations["DeleteUserUpstreamLinkInTenant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/users/{userId}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a user’s live sessions
         * @description A user's live sessions (in a tenant scope, their sign-ins to that tenant); a user outside the scope is `not_found`.
         *
         *     Requires `sessions:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["ListUserSessions"];
        put?: never;
        post?: never;
        /**
         * Sign a user out everywhere: their sessions and every other grant of theirs (offline, device) end with their tokens
         * @description Signs a user out everywhere: each of their sessions ends as `revokeSession` ends it, and so does every other grant of
         *     theirs with its tokens (an `offline_access` grant that outlived its browser session, a device's sign-in), its own
         *     session or one without a live token. On a tenant's path, only their sign-ins to that tenant and the grants made for it. Audited as
         *     `session.revoked` for each sign-in that ends and `grant.revoked` (`after.reason`: `revocation`) for each other grant.
         *     Idempotent; a user outside the scope is `not_found`.
         *
         *     Requires `sessions:delete`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        delete: operations["RevokeUserSessions"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/users/{userId}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a user’s live sessions
         * @description A user's live sessions (in a tenant scope, their sign-ins to that tenant); a user outside the scope is `not_found`.
         *
         *     Requires `sessions:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["ListUserSessionsInApplication"];
        put?: never;
        post?: never;
        /**
         * Sign a user out everywhere: their sessions and every other grant of theirs (offline, device) end with their tokens
         * @description Signs a user out everywhere: each of their sessions ends as `revokeSession` ends it, and so does every other grant of
         *     theirs with its tokens (an `offline_access` grant that outlived its browser session, a device's sign-in), its own
         *     session or one without a live token. On a tenant's path, only their sign-ins to that tenant and the grants made for it. Audited as
         *     `session.revoked` for each sign-in that ends and `grant.revoked` (`after.reason`: `revocation`) for each other grant.
         *     Idempotent; a user outside the scope is `not_found`.
         *
         *     Requires `sessions:delete`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        delete: operations["RevokeUserSessionsInApplication"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/users/{userId}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a user’s live sessions
         * @description A user's live sessions (in a tenant scope, their sign-ins to that tenant); a user outside the scope is `not_found`.
         *
         *     Requires `sessions:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["ListUserSessionsInTenant"];
        put?: never;
        post?: never;
        /**
         * Sign a user out everywhere: their sessions and every other grant of theirs (offline, device) end with their tokens
         * @description Signs a user out everywhere: each of their sessions ends as `revokeSession` ends it, and so does every other grant of
         *     theirs with its tokens (an `offline_access` grant that outlived its browser session, a device's sign-in), its own
         *     session or one without a live token. On a tenant's path, only their sign-ins to that tenant and the grants made for it. Audited as
         *     `session.revoked` for each sign-in that ends and `grant.revoked` (`after.reason`: `revocation`) for each other grant.
         *     Idempotent; a user outside the scope is `not_found`.
         *
         *     Requires `sessions:delete`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        delete: operations["RevokeUserSessionsInTenant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List live sessions (a tenant scope: its sign-ins)
         * @description The live sessions of the application, or of one tenant (its sign-ins) in a tenant scope.
         *
         *     Requires `sessions:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["ListSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List live sessions (a tenant scope: its sign-ins)
         * @description The live sessions of the application, or of one tenant (its sign-ins) in a tenant scope.
         *
         *     Requires `sessions:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["ListSessionsInApplication"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List live sessions (a tenant scope: its sign-ins)
         * @description The live sessions of the application, or of one tenant (its sign-ins) in a tenant scope.
         *
         *     Requires `sessions:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["ListSessionsInTenant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Whether an access or refresh token’s session still stands
         * @description Whether an access or refresh token's session still stands: what a customer's backend asks before trusting a token.
         *     A use of the session (marks `lastActiveAt`).
         *
         *     Requires `sessions:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["ValidateSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/sessions/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Whether an access or refresh token’s session still stands
         * @description Whether an access or refresh token's session still stands: what a customer's backend asks before trusting a token.
         *     A use of the session (marks `lastActiveAt`).
         *
         *     Requires `sessions:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["ValidateSessionInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/sessions/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Whether an access or refresh token’s session still stands
         * @description Whether an access or refresh token's session still stands: what a customer's backend asks before trusting a token.
         *     A use of the session (marks `lastActiveAt`).
         *
         *     Requires `sessions:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["ValidateSessionInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sessions/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a live session
         * @description One live session of the scope; another application's or tenant's, or one that ended, is `not_found`.
         *
         *     Requires `sessions:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetSession"];
        put?: never;
        post?: never;
        /**
         * Revoke a session: its browser session, grants and tokens end
         * @description Revokes a session: its grants end with every token issued under them (its refresh tokens fail at once, its access
         *     tokens are refused by the management API and by validation). On a tenant's path the browser session stays while it
         *     holds another tenant's sign-in, and signs the user in to the tenant again only with a credential; on the
         *     application's path it ends with every tenant's sign-in in it. A grant's own session ends with its tokens. Audited as
         *     `session.revoked`, for each sign-in that ends.
         *
         *     Requires `sessions:delete`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        delete: operations["RevokeSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/sessions/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a live session
         * @description One live session of the scope; another application's or tenant's, or one that ended, is `not_found`.
         *
         *     Requires `sessions:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetSessionInApplication"];
        put?: never;
        post?: never;
        /**
         * Revoke a session: its browser session, grants and tokens end
         * @description Revokes a session: its grants end with every token issued under them (its refresh tokens fail at once, its access
         *     tokens are refused by the management API and by validation). On a tenant's path the browser session stays while it
         *     holds another tenant's sign-in, and signs the user in to the tenant again only with a credential; on the
         *     application's path it ends with every tenant's sign-in in it. A grant's own session ends with its tokens. Audited as
         *     `session.revoked`, for each sign-in that ends.
         *
         *     Requires `sessions:delete`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        delete: operations["RevokeSessionInApplication"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/sessions/{sessionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a live session
         * @description One live session of the scope; another application's or tenant's, or one that ended, is `not_found`.
         *
         *     Requires `sessions:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetSessionInTenant"];
        put?: never;
        post?: never;
        /**
         * Revoke a session: its browser session, grants and tokens end
         * @description Revokes a session: its grants end with every token issued under them (its refresh tokens fail at once, its access
         *     tokens are refused by the management API and by validation). On a tenant's path the browser session stays while it
         *     holds another tenant's sign-in, and signs the user in to the tenant again only with a credential; on the
         *     application's path it ends with every tenant's sign-in in it. A grant's own session ends with its tokens. Audited as
         *     `session.revoked`, for each sign-in that ends.
         *
         *     Requires `sessions:delete`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        delete: operations["RevokeSessionInTenant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description The API keys of the application, or of one tenant in a tenant scope; revoked keys are listed with `revokedAt`.
         *
         *     Requires `api_keys:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["ListApiKeys"];
        put?: never;
        /**
         * Create an API key (the response alone holds its secret)
         * @description Creates an API key. Its secret is in this response only.
         *
         *     Requires `api_keys:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["CreateApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description The API keys of the application, or of one tenant in a tenant scope; revoked keys are listed with `revokedAt`.
         *
         *     Requires `api_keys:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["ListApiKeysInApplication"];
        put?: never;
        /**
         * Create an API key (the response alone holds its secret)
         * @description Creates an API key. Its secret is in this response only.
         *
         *     Requires `api_keys:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["CreateApiKeyInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description The API keys of the application, or of one tenant in a tenant scope; revoked keys are listed with `revokedAt`.
         *
         *     Requires `api_keys:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["ListApiKeysInTenant"];
        put?: never;
        /**
         * Create an API key (the response alone holds its secret)
         * @description Creates an API key. Its secret is in this response only.
         *
         *     Requires `api_keys:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["CreateApiKeyInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys/introspect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Introspect an API key secret
         * @description Whether a secret is an active key of the caller's application (and tenant, in a tenant scope). A mutation so
         *     that the secret never travels in a GET URL.
         *
         *     Requires `api_keys:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["IntrospectApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/api-keys/introspect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Introspect an API key secret
         * @description Whether a secret is an active key of the caller's application (and tenant, in a tenant scope). A mutation so
         *     that the secret never travels in a GET URL.
         *
         *     Requires `api_keys:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["IntrospectApiKeyInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/api-keys/introspect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Introspect an API key secret
         * @description Whether a secret is an active key of the caller's application (and tenant, in a tenant scope). A mutation so
         *     that the secret never travels in a GET URL.
         *
         *     Requires `api_keys:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["IntrospectApiKeyInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an API key
         * @description One API key.
         *
         *     Requires `api_keys:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetApiKey"];
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Revokes an API key: it stops authenticating at once (401). Revoking a revoked key changes nothing.
         *
         *     Requires `api_keys:delete`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        delete: operations["RevokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an API key
         * @description One API key.
         *
         *     Requires `api_keys:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetApiKeyInApplication"];
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Revokes an API key: it stops authenticating at once (401). Revoking a revoked key changes nothing.
         *
         *     Requires `api_keys:delete`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        delete: operations["RevokeApiKeyInApplication"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an API key
         * @description One API key.
         *
         *     Requires `api_keys:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetApiKeyInTenant"];
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Revokes an API key: it stops authenticating at once (401). Revoking a revoked key changes nothing.
         *
         *     Requires `api_keys:delete`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        delete: operations["RevokeApiKeyInTenant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-keys/{keyId}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an API key’s secret
         * @description Gives a key a new secret; the old secret stops working at once. Revoked or expired keys cannot be rotated. Under the
         *     api_keys provider's `maxLifetimeDays`, a key that would outlive the limit ends at it.
         *
         *     Requires `api_keys:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["RotateApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/api-keys/{keyId}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an API key’s secret
         * @description Gives a key a new secret; the old secret stops working at once. Revoked or expired keys cannot be rotated. Under the
         *     api_keys provider's `maxLifetimeDays`, a key that would outlive the limit ends at it.
         *
         *     Requires `api_keys:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["RotateApiKeyInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/api-keys/{keyId}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an API key’s secret
         * @description Gives a key a new secret; the old secret stops working at once. Revoked or expired keys cannot be rotated. Under the
         *     api_keys provider's `maxLifetimeDays`, a key that would outlive the limit ends at it.
         *
         *     Requires `api_keys:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["RotateApiKeyInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/permissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List permissions: the built-in ones, then the application’s own (a tenant scope: and its own)
         * @description The built-in permissions, then the custom ones the scope sees: the application-wide ones and, on a tenant path, that
         *     tenant's (on the application's path, every tenant's too).
         *
         *     Requires `permissions:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["ListPermissions"];
        put?: never;
        /**
         * Create a custom permission (a tenant scope: the tenant’s own)
         * @description Creates a custom permission: application-wide on the application's path, the tenant's own on a tenant path.
         *
         *     Requires `permissions:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["CreatePermission"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/permissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List permissions: the built-in ones, then the application’s own (a tenant scope: and its own)
         * @description The built-in permissions, then the custom ones the scope sees: the application-wide ones and, on a tenant path, that
         *     tenant's (on the application's path, every tenant's too).
         *
         *     Requires `permissions:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["ListPermissionsInApplication"];
        put?: never;
        /**
         * Create a custom permission (a tenant scope: the tenant’s own)
         * @description Creates a custom permission: application-wide on the application's path, the tenant's own on a tenant path.
         *
         *     Requires `permissions:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["CreatePermissionInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/permissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List permissions: the built-in ones, then the application’s own (a tenant scope: and its own)
         * @description The built-in permissions, then the custom ones the scope sees: the application-wide ones and, on a tenant path, that
         *     tenant's (on the application's path, every tenant's too).
         *
         *     Requires `permissions:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["ListPermissionsInTenant"];
        put?: never;
        /**
         * Create a custom permission (a tenant scope: the tenant’s own)
         * @description Creates a custom permission: application-wide on the application's path, the tenant's own on a tenant path.
         *
         *     Requires `permissions:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["CreatePermissionInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/permissions/{permissionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a custom permission; the roles that held it leave it
         * @description Deletes a custom permission: every role that held it leaves it (each change audited as `role.updated`). A built-in
         *     permission: 422. An application-wide one from a tenant scope: 403.
         *
         *     Requires `permissions:delete`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        delete: operations["DeletePermission"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/permissions/{permissionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a custom permission; the roles that held it leave it
         * @description Deletes a custom permission: every role that held it leaves it (each change audited as `role.updated`). A built-in
         *     permission: 422. An application-wide one from a tenant scope: 403.
         *
         *     Requires `permissions:delete`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        delete: operations["DeletePermissionInApplication"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/permissions/{permissionId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a custom permission; the roles that held it leave it
         * @description Deletes a custom permission: every role that held it leaves it (each change audited as `role.updated`). A built-in
         *     permission: 422. An application-wide one from a tenant scope: 403.
         *
         *     Requires `permissions:delete`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        delete: operations["DeletePermissionInTenant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List roles (a tenant scope: the application’s and its own)
         * @description The roles the scope sees: the application-wide ones (built-in first) and, on a tenant path, that tenant's own.
         *
         *     Requires `roles:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["ListRoles"];
        put?: never;
        /**
         * Create a role (a tenant scope: the tenant’s own)
         * @description Creates a role: application-wide on the application's path, the tenant's own on a tenant path.
         *
         *     Requires `roles:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["CreateRole"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List roles (a tenant scope: the application’s and its own)
         * @description The roles the scope sees: the application-wide ones (built-in first) and, on a tenant path, that tenant's own.
         *
         *     Requires `roles:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["ListRolesInApplication"];
        put?: never;
        /**
         * Create a role (a tenant scope: the tenant’s own)
         * @description Creates a role: application-wide on the application's path, the tenant's own on a tenant path.
         *
         *     Requires `roles:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["CreateRoleInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/roles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List roles (a tenant scope: the application’s and its own)
         * @description The roles the scope sees: the application-wide ones (built-in first) and, on a tenant path, that tenant's own.
         *
         *     Requires `roles:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["ListRolesInTenant"];
        put?: never;
        /**
         * Create a role (a tenant scope: the tenant’s own)
         * @description Creates a role: application-wide on the application's path, the tenant's own on a tenant path.
         *
         *     Requires `roles:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["CreateRoleInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/roles/{roleId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a role
         * @description One role the scope sees.
         *
         *     Requires `roles:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetRole"];
        put?: never;
        post?: never;
        /**
         * Delete a role and its assignments
         * @description Deletes a role and its assignments (each audited). A built-in role: 422; an application-wide role from a
         *     tenant scope: 403.
         *
         *     Requires `roles:delete`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        delete: operations["DeleteRole"];
        options?: never;
        head?: never;
        /**
         * Update a role (an application-wide one on the application’s path only)
         * @description Updates a role. An application-wide role, built-in ones included, is changed only on the application's path with
         *     application-wide credentials (a tenant scope: 403).
         *
         *     Requires `roles:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        patch: operations["UpdateRole"];
        trace?: never;
    };
    "/applications/{appId}/roles/{roleId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a role
         * @description One role the scope sees.
         *
         *     Requires `roles:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetRoleInApplication"];
        put?: never;
        post?: never;
        /**
         * Delete a role and its assignments
         * @description Deletes a role and its assignments (each audited). A built-in role: 422; an application-wide role from a
         *     tenant scope: 403.
         *
         *     Requires `roles:delete`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        delete: operations["DeleteRoleInApplication"];
        options?: never;
        head?: never;
        /**
         * Update a role (an application-wide one on the application’s path only)
         * @description Updates a role. An application-wide role, built-in ones included, is changed only on the application's path with
         *     application-wide credentials (a tenant scope: 403).
         *
         *     Requires `roles:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        patch: operations["UpdateRoleInApplication"];
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/roles/{roleId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a role
         * @description One role the scope sees.
         *
         *     Requires `roles:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetRoleInTenant"];
        put?: never;
        post?: never;
        /**
         * Delete a role and its assignments
         * @description Deletes a role and its assignments (each audited). A built-in role: 422; an application-wide role from a
         *     tenant scope: 403.
         *
         *     Requires `roles:delete`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        delete: operations["DeleteRoleInTenant"];
        options?: never;
        head?: never;
        /**
         * Update a role (an application-wide one on the application’s path only)
         * @description Updates a role. An application-wide role, built-in ones included, is changed only on the application's path with
         *     application-wide credentials (a tenant scope: 403).
         *
         *     Requires `roles:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        patch: operations["UpdateRoleInTenant"];
        trace?: never;
    };
    "/role-assignments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List role assignments, by subject or role
         * @description The assignments the scope sees: on the application's path all of them; on a tenant path those made there and the
         *     application-wide ones of its subjects (its members, and keys and credentials bound to it). Filters: `subjectType`
         *     (every subject of a kind, e.g. the application's operators), with `subjectId` one subject's (an id alone: 422),
         *     `roleId` (one role's).
         *
         *     Requires `role_assignments:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["ListRoleAssignments"];
        put?: never;
        /**
         * Assign a role (a tenant scope: in that tenant; else in every tenant)
         * @description Assigns a role: on a tenant path (or with `tenantId`) it holds in that tenant only, else in every tenant.
         *
         *     Requires `role_assignments:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["CreateRoleAssignment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/role-assignments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List role assignments, by subject or role
         * @description The assignments the scope sees: on the application's path all of them; on a tenant path those made there and the
         *     application-wide ones of its subjects (its members, and keys and credentials bound to it). Filters: `subjectType`
         *     (every subject of a kind, e.g. the application's operators), with `subjectId` one subject's (an id alone: 422),
         *     `roleId` (one role's).
         *
         *     Requires `role_assignments:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["ListRoleAssignmentsInApplication"];
        put?: never;
        /**
         * Assign a role (a tenant scope: in that tenant; else in every tenant)
         * @description Assigns a role: on a tenant path (or with `tenantId`) it holds in that tenant only, else in every tenant.
         *
         *     Requires `role_assignments:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["CreateRoleAssignmentInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/role-assignments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List role assignments, by subject or role
         * @description The assignments the scope sees: on the application's path all of them; on a tenant path those made there and the
         *     application-wide ones of its subjects (its members, and keys and credentials bound to it). Filters: `subjectType`
         *     (every subject of a kind, e.g. the application's operators), with `subjectId` one subject's (an id alone: 422),
         *     `roleId` (one role's).
         *
         *     Requires `role_assignments:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["ListRoleAssignmentsInTenant"];
        put?: never;
        /**
         * Assign a role (a tenant scope: in that tenant; else in every tenant)
         * @description Assigns a role: on a tenant path (or with `tenantId`) it holds in that tenant only, else in every tenant.
         *
         *     Requires `role_assignments:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["CreateRoleAssignmentInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/role-assignments/{assignmentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a role assignment
         * @description One assignment the scope sees.
         *
         *     Requires `role_assignments:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetRoleAssignment"];
        put?: never;
        post?: never;
        /**
         * Remove a role assignment
         * @description Removes an assignment the scope sees. An application-wide one from a tenant scope, which sees those of its
         *     subjects: 403. The application's last application-wide `app_admin` held by an operator who can act (whose console
         *     user is not suspended): 422 (field `assignmentId`), so that someone still manages the application from the dashboard.
         *
         *     Requires `role_assignments:delete`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        delete: operations["DeleteRoleAssignment"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/role-assignments/{assignmentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a role assignment
         * @description One assignment the scope sees.
         *
         *     Requires `role_assignments:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetRoleAssignmentInApplication"];
        put?: never;
        post?: never;
        /**
         * Remove a role assignment
         * @description Removes an assignment the scope sees. An application-wide one from a tenant scope, which sees those of its
         *     subjects: 403. The application's last application-wide `app_admin` held by an operator who can act (whose console
         *     user is not suspended): 422 (field `assignmentId`), so that someone still manages the application from the dashboard.
         *
         *     Requires `role_assignments:delete`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        delete: operations["DeleteRoleAssignmentInApplication"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/role-assignments/{assignmentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a role assignment
         * @description One assignment the scope sees.
         *
         *     Requires `role_assignments:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetRoleAssignmentInTenant"];
        put?: never;
        post?: never;
        /**
         * Remove a role assignment
         * @description Removes an assignment the scope sees. An application-wide one from a tenant scope, which sees those of its
         *     subjects: 403. The application's last application-wide `app_admin` held by an operator who can act (whose console
         *     user is not suspended): 422 (field `assignmentId`), so that someone still manages the application from the dashboard.
         *
         *     Requires `role_assignments:delete`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        delete: operations["DeleteRoleAssignmentInTenant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/permissions/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Whether a subject holds a permission in the scope, and through which roles
         * @description Whether a subject holds a permission in the scope's tenant, and through which roles. A mutation, as every check is a
         *     POST, but it changes nothing and writes no audit record.
         *
         *     Requires `permissions:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["CheckPermission"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/permissions/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Whether a subject holds a permission in the scope, and through which roles
         * @description Whether a subject holds a permission in the scope's tenant, and through which roles. A mutation, as every check is a
         *     POST, but it changes nothing and writes no audit record.
         *
         *     Requires `permissions:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["CheckPermissionInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/permissions/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Whether a subject holds a permission in the scope, and through which roles
         * @description Whether a subject holds a permission in the scope's tenant, and through which roles. A mutation, as every check is a
         *     POST, but it changes nothing and writes no audit record.
         *
         *     Requires `permissions:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["CheckPermissionInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/permissions/bulk-check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Up to 100 permission checks, answered in order
         * @description Up to 100 permission checks in one request, in at most three SQL statements whatever their number.
         *
         *     Requires `permissions:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["BulkCheckPermissions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/permissions/bulk-check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Up to 100 permission checks, answered in order
         * @description Up to 100 permission checks in one request, in at most three SQL statements whatever their number.
         *
         *     Requires `permissions:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["BulkCheckPermissionsInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/permissions/bulk-check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Up to 100 permission checks, answered in order
         * @description Up to 100 permission checks in one request, in at most three SQL statements whatever their number.
         *
         *     Requires `permissions:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["BulkCheckPermissionsInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/roles/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Whether a subject holds a role (by key or id) in the scope
         * @description Whether a subject holds a role in the scope's tenant.
         *
         *     Requires `roles:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["CheckRole"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/roles/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Whether a subject holds a role (by key or id) in the scope
         * @description Whether a subject holds a role in the scope's tenant.
         *
         *     Requires `roles:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["CheckRoleInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/roles/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Whether a subject holds a role (by key or id) in the scope
         * @description Whether a subject holds a role in the scope's tenant.
         *
         *     Requires `roles:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["CheckRoleInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/policies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the four policies (a tenant scope: effective, with source)
         * @description All four policies: the application's, or a tenant's effective ones with `source`.
         *
         *     Requires `policies:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetPolicies"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/policies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the four policies (a tenant scope: effective, with source)
         * @description All four policies: the application's, or a tenant's effective ones with `source`.
         *
         *     Requires `policies:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetPoliciesInApplication"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/policies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the four policies (a tenant scope: effective, with source)
         * @description All four policies: the application's, or a tenant's effective ones with `source`.
         *
         *     Requires `policies:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetPoliciesInTenant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/policies/{kind}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a policy (a tenant scope: effective, with source)
         * @description One policy: the application's, or a tenant's effective one with `source`.
         *
         *     Requires `policies:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetPolicy"];
        /**
         * Replace a policy (a tenant scope: its override; needs authIsolation = isolated)
         * @description Replaces a policy: the application's (application-wide credentials), or a tenant's override, which needs
         *     `authIsolation` = `isolated` (else 409 `tenant_customization_disabled`).
         *
         *     Requires `policies:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        put: operations["PutPolicy"];
        post?: never;
        /**
         * Remove a tenant’s policy override (tenant scope only)
         * @description "Remove tenant override": the tenant inherits the application's policy again. Tenant scope only (else 422 on
         *     `tenantId`); 409 `tenant_customization_disabled` unless `authIsolation` = `isolated`; 404 when the tenant has no
         *     override of that policy.
         *
         *     Requires `policies:delete`. In a tenant scope also `tenant_overrides:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        delete: operations["RemovePolicy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/policies/{kind}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a policy (a tenant scope: effective, with source)
         * @description One policy: the application's, or a tenant's effective one with `source`.
         *
         *     Requires `policies:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetPolicyInApplication"];
        /**
         * Replace a policy (a tenant scope: its override; needs authIsolation = isolated)
         * @description Replaces a policy: the application's (application-wide credentials), or a tenant's override, which needs
         *     `authIsolation` = `isolated` (else 409 `tenant_customization_disabled`).
         *
         *     Requires `policies:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        put: operations["PutPolicyInApplication"];
        post?: never;
        /**
         * Remove a tenant’s policy override (tenant scope only)
         * @description "Remove tenant override": the tenant inherits the application's policy again. Tenant scope only (else 422 on
         *     `tenantId`); 409 `tenant_customization_disabled` unless `authIsolation` = `isolated`; 404 when the tenant has no
         *     override of that policy.
         *
         *     Requires `policies:delete`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        delete: operations["RemovePolicyInApplication"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/policies/{kind}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a policy (a tenant scope: effective, with source)
         * @description One policy: the application's, or a tenant's effective one with `source`.
         *
         *     Requires `policies:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetPolicyInTenant"];
        /**
         * Replace a policy (a tenant scope: its override; needs authIsolation = isolated)
         * @description Replaces a policy: the application's (application-wide credentials), or a tenant's override, which needs
         *     `authIsolation` = `isolated` (else 409 `tenant_customization_disabled`).
         *
         *     Requires `policies:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        put: operations["PutPolicyInTenant"];
        post?: never;
        /**
         * Remove a tenant’s policy override (tenant scope only)
         * @description "Remove tenant override": the tenant inherits the application's policy again. Tenant scope only (else 422 on
         *     `tenantId`); 409 `tenant_customization_disabled` unless `authIsolation` = `isolated`; 404 when the tenant has no
         *     override of that policy.
         *
         *     Requires `policies:delete`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        delete: operations["RemovePolicyInTenant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/branding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the branding (a tenant scope: effective, with source)
         * @description The branding: a tenant's effective branding with `source` when the scope is a tenant (the path's, else the
         *     credentials'), else the application's.
         *
         *     Requires `branding:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetBranding"];
        /**
         * Replace the branding (a tenant scope: its override; needs brandingScope = tenant)
         * @description Replaces the branding: the application's at application scope; at tenant scope the tenant's override (409
         *     `tenant_customization_disabled` while `brandingScope` = `application`).
         *
         *     Requires `branding:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        put: operations["PutBranding"];
        post?: never;
        /**
         * Remove a tenant’s branding override (tenant scope only)
         * @description "Remove tenant override": the tenant inherits the application's branding again. Tenant scope only (else 422 on
         *     `tenantId`); 409 `tenant_customization_disabled` while `brandingScope` = `application`, which keeps the hidden
         *     override for when the scope is `tenant` again; 404 when the tenant has no override.
         *
         *     Requires `branding:delete`. In a tenant scope also `tenant_overrides:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        delete: operations["RemoveBrandingOverride"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/branding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the branding (a tenant scope: effective, with source)
         * @description The branding: a tenant's effective branding with `source` when the scope is a tenant (the path's, else the
         *     credentials'), else the application's.
         *
         *     Requires `branding:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetBrandingInApplication"];
        /**
         * Replace the branding (a tenant scope: its override; needs brandingScope = tenant)
         * @description Replaces the branding: the application's at application scope; at tenant scope the tenant's override (409
         *     `tenant_customization_disabled` while `brandingScope` = `application`).
         *
         *     Requires `branding:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        put: operations["PutBrandingInApplication"];
        post?: never;
        /**
         * Remove a tenant’s branding override (tenant scope only)
         * @description "Remove tenant override": the tenant inherits the application's branding again. Tenant scope only (else 422 on
         *     `tenantId`); 409 `tenant_customization_disabled` while `brandingScope` = `application`, which keeps the hidden
         *     override for when the scope is `tenant` again; 404 when the tenant has no override.
         *
         *     Requires `branding:delete`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        delete: operations["RemoveBrandingOverrideInApplication"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/branding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the branding (a tenant scope: effective, with source)
         * @description The branding: a tenant's effective branding with `source` when the scope is a tenant (the path's, else the
         *     credentials'), else the application's.
         *
         *     Requires `branding:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetBrandingInTenant"];
        /**
         * Replace the branding (a tenant scope: its override; needs brandingScope = tenant)
         * @description Replaces the branding: the application's at application scope; at tenant scope the tenant's override (409
         *     `tenant_customization_disabled` while `brandingScope` = `application`).
         *
         *     Requires `branding:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        put: operations["PutBrandingInTenant"];
        post?: never;
        /**
         * Remove a tenant’s branding override (tenant scope only)
         * @description "Remove tenant override": the tenant inherits the application's branding again. Tenant scope only (else 422 on
         *     `tenantId`); 409 `tenant_customization_disabled` while `brandingScope` = `application`, which keeps the hidden
         *     override for when the scope is `tenant` again; 404 when the tenant has no override.
         *
         *     Requires `branding:delete`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        delete: operations["RemoveBrandingOverrideInTenant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/email/provider": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the e-mail provider, secrets excepted (a tenant scope: effective, with source)
         * @description The e-mail provider: a tenant's effective provider with `source` when the scope is a tenant (the path's, else the
         *     credentials'), else the application's.
         *
         *     Requires `email:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetEmailProvider"];
        /**
         * Replace the e-mail provider (a tenant scope: its override; needs emailProviderScope = tenant)
         * @description Replaces the provider settings: the application's at application scope; at tenant scope the tenant's override
         *     (409 `tenant_customization_disabled` while `emailProviderScope` = `application`).
         *
         *     Requires `email:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        put: operations["PutEmailProvider"];
        post?: never;
        /**
         * Remove a tenant’s e-mail provider override (tenant scope only)
         * @description "Remove tenant override": the tenant uses the application's provider again; its own secrets are deleted. Tenant
         *     scope only (else 422 on `tenantId`); 409 `tenant_customization_disabled` while `emailProviderScope` = `application`,
         *     which keeps the hidden override for when the scope is `tenant` again; 404 when the tenant has no override.
         *
         *     Requires `email:delete`. In a tenant scope also `tenant_overrides:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        delete: operations["RemoveEmailProviderOverride"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/email/provider": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the e-mail provider, secrets excepted (a tenant scope: effective, with source)
         * @description The e-mail provider: a tenant's effective provider with `source` when the scope is a tenant (the path's, else the
         *     credentials'), else the application's.
         *
         *     Requires `email:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetEmailProviderInApplication"];
        /**
         * Replace the e-mail provider (a tenant scope: its override; needs emailProviderScope = tenant)
         * @description Replaces the provider settings: the application's at application scope; at tenant scope the tenant's override
         *     (409 `tenant_customization_disabled` while `emailProviderScope` = `application`).
         *
         *     Requires `email:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        put: operations["PutEmailProviderInApplication"];
        post?: never;
        /**
         * Remove a tenant’s e-mail provider override (tenant scope only)
         * @description "Remove tenant override": the tenant uses the application's provider again; its own secrets are deleted. Tenant
         *     scope only (else 422 on `tenantId`); 409 `tenant_customization_disabled` while `emailProviderScope` = `application`,
         *     which keeps the hidden override for when the scope is `tenant` again; 404 when the tenant has no override.
         *
         *     Requires `email:delete`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        delete: operations["RemoveEmailProviderOverrideInApplication"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/email/provider": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the e-mail provider, secrets excepted (a tenant scope: effective, with source)
         * @description The e-mail provider: a tenant's effective provider with `source` when the scope is a tenant (the path's, else the
         *     credentials'), else the application's.
         *
         *     Requires `email:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetEmailProviderInTenant"];
        /**
         * Replace the e-mail provider (a tenant scope: its override; needs emailProviderScope = tenant)
         * @description Replaces the provider settings: the application's at application scope; at tenant scope the tenant's override
         *     (409 `tenant_customization_disabled` while `emailProviderScope` = `application`).
         *
         *     Requires `email:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        put: operations["PutEmailProviderInTenant"];
        post?: never;
        /**
         * Remove a tenant’s e-mail provider override (tenant scope only)
         * @description "Remove tenant override": the tenant uses the application's provider again; its own secrets are deleted. Tenant
         *     scope only (else 422 on `tenantId`); 409 `tenant_customization_disabled` while `emailProviderScope` = `application`,
         *     which keeps the hidden override for when the scope is `tenant` again; 404 when the tenant has no override.
         *
         *     Requires `email:delete`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        delete: operations["RemoveEmailProviderOverrideInTenant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/email/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the 12 e-mail templates (a tenant scope: effective, each with source)
         * @description All 12 templates as they apply in the scope (a tenant's effective ones, each with `source`).
         *
         *     Requires `email:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["ListEmailTemplates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/email/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the 12 e-mail templates (a tenant scope: effective, each with source)
         * @description All 12 templates as they apply in the scope (a tenant's effective ones, each with `source`).
         *
         *     Requires `email:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["ListEmailTemplatesInApplication"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/email/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the 12 e-mail templates (a tenant scope: effective, each with source)
         * @description All 12 templates as they apply in the scope (a tenant's effective ones, each with `source`).
         *
         *     Requires `email:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["ListEmailTemplatesInTenant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/email/templates/{templateKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an e-mail template (a tenant scope: effective, with source)
         * @description One template as it applies in the scope.
         *
         *     Requires `email:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetEmailTemplate"];
        /**
         * Replace an e-mail template (a tenant scope: its override; needs emailTemplatesScope = tenant)
         * @description Replaces one template: the application's at application scope; at tenant scope the tenant's override of that
         *     template (409 `tenant_customization_disabled` while `emailTemplatesScope` = `application`). 429 `rate_limited` while
         *     another template of the application is rendering (a preview or a PUT), on the same instance.
         *
         *     Requires `email:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        put: operations["PutEmailTemplate"];
        post?: never;
        /**
         * Remove a tenant’s override of one e-mail template (tenant scope only)
         * @description "Remove tenant override" of one template: the tenant falls back to the application's template. Tenant scope only
         *     (else 422 on `tenantId`); 409 `tenant_customization_disabled` while `emailTemplatesScope` = `application`, which keeps
         *     the hidden override for when the scope is `tenant` again; 404 when the tenant does not override it.
         *
         *     Requires `email:delete`. In a tenant scope also `tenant_overrides:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        delete: operations["RemoveEmailTemplateOverride"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/email/templates/{templateKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an e-mail template (a tenant scope: effective, with source)
         * @description One template as it applies in the scope.
         *
         *     Requires `email:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetEmailTemplateInApplication"];
        /**
         * Replace an e-mail template (a tenant scope: its override; needs emailTemplatesScope = tenant)
         * @description Replaces one template: the application's at application scope; at tenant scope the tenant's override of that
         *     template (409 `tenant_customization_disabled` while `emailTemplatesScope` = `application`). 429 `rate_limited` while
         *     another template of the application is rendering (a preview or a PUT), on the same instance.
         *
         *     Requires `email:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        put: operations["PutEmailTemplateInApplication"];
        post?: never;
        /**
         * Remove a tenant’s override of one e-mail template (tenant scope only)
         * @description "Remove tenant override" of one template: the tenant falls back to the application's template. Tenant scope only
         *     (else 422 on `tenantId`); 409 `tenant_customization_disabled` while `emailTemplatesScope` = `application`, which keeps
         *     the hidden override for when the scope is `tenant` again; 404 when the tenant does not override it.
         *
         *     Requires `email:delete`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        delete: operations["RemoveEmailTemplateOverrideInApplication"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/email/templates/{templateKey}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an e-mail template (a tenant scope: effective, with source)
         * @description One template as it applies in the scope.
         *
         *     Requires `email:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetEmailTemplateInTenant"];
        /**
         * Replace an e-mail template (a tenant scope: its override; needs emailTemplatesScope = tenant)
         * @description Replaces one template: the application's at application scope; at tenant scope the tenant's override of that
         *     template (409 `tenant_customization_disabled` while `emailTemplatesScope` = `application`). 429 `rate_limited` while
         *     another template of the application is rendering (a preview or a PUT), on the same instance.
         *
         *     Requires `email:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        put: operations["PutEmailTemplateInTenant"];
        post?: never;
        /**
         * Remove a tenant’s override of one e-mail template (tenant scope only)
         * @description "Remove tenant override" of one template: the tenant falls back to the application's template. Tenant scope only
         *     (else 422 on `tenantId`); 409 `tenant_customization_disabled` while `emailTemplatesScope` = `application`, which keeps
         *     the hidden override for when the scope is `tenant` again; 404 when the tenant does not override it.
         *
         *     Requires `email:delete`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        delete: operations["RemoveEmailTemplateOverrideInTenant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/email/templates/{templateKey}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Render an e-mail template with sample variables
         * @description Renders a template (the stored one, or drafts from the body) with sample variables. Stores and sends nothing. 429
         *     `rate_limited` while another template of the application is rendering (a preview or a PUT), on the same instance.
         *
         *     Requires `email:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["PreviewEmailTemplate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/email/templates/{templateKey}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Render an e-mail template with sample variables
         * @description Renders a template (the stored one, or drafts from the body) with sample variables. Stores and sends nothing. 429
         *     `rate_limited` while another template of the application is rendering (a preview or a PUT), on the same instance.
         *
         *     Requires `email:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["PreviewEmailTemplateInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/email/templates/{templateKey}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Render an e-mail template with sample variables
         * @description Renders a template (the stored one, or drafts from the body) with sample variables. Stores and sends nothing. 429
         *     `rate_limited` while another template of the application is rendering (a preview or a PUT), on the same instance.
         *
         *     Requires `email:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["PreviewEmailTemplateInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/email/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue a test mail through the scope’s effective provider; answers its delivery
         * @description Queues a test mail to `to` through the scope's effective provider (a tenant scope: the tenant's) and returns its
         *     delivery, `queued`; follow it with `emailDelivery`.
         *
         *     Requires `email:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["SendTestEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/email/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue a test mail through the scope’s effective provider; answers its delivery
         * @description Queues a test mail to `to` through the scope's effective provider (a tenant scope: the tenant's) and returns its
         *     delivery, `queued`; follow it with `emailDelivery`.
         *
         *     Requires `email:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["SendTestEmailInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/email/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue a test mail through the scope’s effective provider; answers its delivery
         * @description Queues a test mail to `to` through the scope's effective provider (a tenant scope: the tenant's) and returns its
         *     delivery, `queued`; follow it with `emailDelivery`.
         *
         *     Requires `email:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["SendTestEmailInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/email/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the outbox’s mails, oldest first or with order=newest newest first (filters: status, templateKey, to)
         * @description The outbox: the scope's mails (a tenant scope: its own), oldest first or, with `order: newest`, newest first, filtered
         *     by `status`, `templateKey` and the recipient `to` (exact address). A cursor holds its list's order and filters: used
         *     with another, it is 422 on `cursor`.
         *
         *     Requires `email:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["ListEmailDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/email/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the outbox’s mails, oldest first or with order=newest newest first (filters: status, templateKey, to)
         * @description The outbox: the scope's mails (a tenant scope: its own), oldest first or, with `order: newest`, newest first, filtered
         *     by `status`, `templateKey` and the recipient `to` (exact address). A cursor holds its list's order and filters: used
         *     with another, it is 422 on `cursor`.
         *
         *     Requires `email:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["ListEmailDeliveriesInApplication"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/email/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the outbox’s mails, oldest first or with order=newest newest first (filters: status, templateKey, to)
         * @description The outbox: the scope's mails (a tenant scope: its own), oldest first or, with `order: newest`, newest first, filtered
         *     by `status`, `templateKey` and the recipient `to` (exact address). A cursor holds its list's order and filters: used
         *     with another, it is 422 on `cursor`.
         *
         *     Requires `email:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["ListEmailDeliveriesInTenant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/email/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a mail of the outbox with its rendered subject, text and html
         * @description One mail of the outbox, with its rendered subject, text and html.
         *
         *     Requires `email:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetEmailDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/email/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a mail of the outbox with its rendered subject, text and html
         * @description One mail of the outbox, with its rendered subject, text and html.
         *
         *     Requires `email:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetEmailDeliveryInApplication"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/email/deliveries/{deliveryId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a mail of the outbox with its rendered subject, text and html
         * @description One mail of the outbox, with its rendered subject, text and html.
         *
         *     Requires `email:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetEmailDeliveryInTenant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/email/sender-domain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the From domain of the scope’s provider and the DNS records to publish for it (SPF, DKIM, return path)
         * @description The scope's sender domain (a tenant scope: its effective provider's) and the DNS records to publish for it.
         *
         *     Requires `email:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetEmailSenderDomain"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/email/sender-domain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the From domain of the scope’s provider and the DNS records to publish for it (SPF, DKIM, return path)
         * @description The scope's sender domain (a tenant scope: its effective provider's) and the DNS records to publish for it.
         *
         *     Requires `email:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetEmailSenderDomainInApplication"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/email/sender-domain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the From domain of the scope’s provider and the DNS records to publish for it (SPF, DKIM, return path)
         * @description The scope's sender domain (a tenant scope: its effective provider's) and the DNS records to publish for it.
         *
         *     Requires `email:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetEmailSenderDomainInTenant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/email/sender-domain/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check the sender domain’s DNS records; answers what was found
         * @description Checks the sender domain's records through DNS and answers what was found: `verified` once every record is there,
         *     else each missing record with its `reason` (200 either way). A tenant that inherits the application's provider may
         *     not verify the application's domain (403).
         *
         *     Requires `email:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["VerifyEmailSenderDomain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/email/sender-domain/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check the sender domain’s DNS records; answers what was found
         * @description Checks the sender domain's records through DNS and answers what was found: `verified` once every record is there,
         *     else each missing record with its `reason` (200 either way). A tenant that inherits the application's provider may
         *     not verify the application's domain (403).
         *
         *     Requires `email:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["VerifyEmailSenderDomainInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/email/sender-domain/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check the sender domain’s DNS records; answers what was found
         * @description Checks the sender domain's records through DNS and answers what was found: `verified` once every record is there,
         *     else each missing record with its `reason` (200 either way). A tenant that inherits the application's provider may
         *     not verify the application's domain (403).
         *
         *     Requires `email:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["VerifyEmailSenderDomainInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth-providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the auth providers in force (a tenant scope: its own, else the application’s, with source)
         * @description The providers in force for the scope: the application's; for a tenant, its own when it has any (`customized`), else
         *     the application's (`inherited`); a tenant whose own are only `m2m` or `api_keys` gets the application's sign-in
         *     providers beside them.
         *
         *     Requires `auth_providers:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["ListAuthProviders"];
        put?: never;
        /**
         * Create an auth provider (a tenant scope: the tenant’s own; needs authIsolation = isolated)
         * @description Creates a provider for the application or, in a tenant scope, for the tenant (needs `authIsolation` =
         *     `isolated`, else 409 `tenant_customization_disabled`).
         *
         *     Requires `auth_providers:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["CreateAuthProvider"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/auth-providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the auth providers in force (a tenant scope: its own, else the application’s, with source)
         * @description The providers in force for the scope: the application's; for a tenant, its own when it has any (`customized`), else
         *     the application's (`inherited`); a tenant whose own are only `m2m` or `api_keys` gets the application's sign-in
         *     providers beside them.
         *
         *     Requires `auth_providers:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["ListAuthProvidersInApplication"];
        put?: never;
        /**
         * Create an auth provider (a tenant scope: the tenant’s own; needs authIsolation = isolated)
         * @description Creates a provider for the application or, in a tenant scope, for the tenant (needs `authIsolation` =
         *     `isolated`, else 409 `tenant_customization_disabled`).
         *
         *     Requires `auth_providers:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["CreateAuthProviderInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/auth-providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the auth providers in force (a tenant scope: its own, else the application’s, with source)
         * @description The providers in force for the scope: the application's; for a tenant, its own when it has any (`customized`), else
         *     the application's (`inherited`); a tenant whose own are only `m2m` or `api_keys` gets the application's sign-in
         *     providers beside them.
         *
         *     Requires `auth_providers:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["ListAuthProvidersInTenant"];
        put?: never;
        /**
         * Create an auth provider (a tenant scope: the tenant’s own; needs authIsolation = isolated)
         * @description Creates a provider for the application or, in a tenant scope, for the tenant (needs `authIsolation` =
         *     `isolated`, else 409 `tenant_customization_disabled`).
         *
         *     Requires `auth_providers:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["CreateAuthProviderInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/auth-providers/{providerId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an auth provider in force for the scope
         * @description One provider in force for the scope.
         *
         *     Requires `auth_providers:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetAuthProvider"];
        put?: never;
        post?: never;
        /**
         * Delete an auth provider of the scope’s own level
         * @description Deletes a provider of the scope's own level (an inherited application provider: 403, as for updates); a tenant left
         *     without sign-in providers signs in with the application's again. The console application's last enabled sign-in
         *     provider: 409 `last_sign_in_provider`, field `providerId`.
         *
         *     Requires `auth_providers:delete`. In a tenant scope also `tenant_overrides:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        delete: operations["DeleteAuthProvider"];
        options?: never;
        head?: never;
        /**
         * Update an auth provider of the scope’s own level
         * @description Changes a provider of the scope's own level: a tenant scope may not change the application's providers it inherits
         *     (403), and one it does not inherit is 404 to it. Disabling the console application's last enabled sign-in provider:
         *     409 `last_sign_in_provider`, field `enabled`.
         *
         *     Requires `auth_providers:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        patch: operations["UpdateAuthProvider"];
        trace?: never;
    };
    "/applications/{appId}/auth-providers/{providerId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an auth provider in force for the scope
         * @description One provider in force for the scope.
         *
         *     Requires `auth_providers:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetAuthProviderInApplication"];
        put?: never;
        post?: never;
        /**
         * Delete an auth provider of the scope’s own level
         * @description Deletes a provider of the scope's own level (an inherited application provider: 403, as for updates); a tenant left
         *     without sign-in providers signs in with the application's again. The console application's last enabled sign-in
         *     provider: 409 `last_sign_in_provider`, field `providerId`.
         *
         *     Requires `auth_providers:delete`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        delete: operations["DeleteAuthProviderInApplication"];
        options?: never;
        head?: never;
        /**
         * Update an auth provider of the scope’s own level
         * @description Changes a provider of the scope's own level: a tenant scope may not change the application's providers it inherits
         *     (403), and one it does not inherit is 404 to it. Disabling the console application's last enabled sign-in provider:
         *     409 `last_sign_in_provider`, field `enabled`.
         *
         *     Requires `auth_providers:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        patch: operations["UpdateAuthProviderInApplication"];
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/auth-providers/{providerId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an auth provider in force for the scope
         * @description One provider in force for the scope.
         *
         *     Requires `auth_providers:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetAuthProviderInTenant"];
        put?: never;
        post?: never;
        /**
         * Delete an auth provider of the scope’s own level
         * @description Deletes a provider of the scope's own level (an inherited application provider: 403, as for updates); a tenant left
         *     without sign-in providers signs in with the application's again. The console application's last enabled sign-in
         *     provider: 409 `last_sign_in_provider`, field `providerId`.
         *
         *     Requires `auth_providers:delete`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        delete: operations["DeleteAuthProviderInTenant"];
        options?: never;
        head?: never;
        /**
         * Update an auth provider of the scope’s own level
         * @description Changes a provider of the scope's own level: a tenant scope may not change the application's providers it inherits
         *     (403), and one it does not inherit is 404 to it. Disabling the console application's last enabled sign-in provider:
         *     409 `last_sign_in_provider`, field `enabled`.
         *
         *     Requires `auth_providers:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        patch: operations["UpdateAuthProviderInTenant"];
        trace?: never;
    };
    "/auth-providers/{providerId}/rotate-sp-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a saml provider’s SP key (the previous one still decrypts and stays in the metadata for a grace period)
         * @description Gives a saml provider of the scope's own level a new SP key pair, current at once (it signs the AuthnRequests from
         *     now on); the previous one still decrypts assertions and stays in the metadata for the grace period, in place of any
         *     earlier one. Another type of provider: 422, field `providerId`; an inherited application provider: 403, as for updates.
         *
         *     Requires `auth_providers:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["RotateSamlSpKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/auth-providers/{providerId}/rotate-sp-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a saml provider’s SP key (the previous one still decrypts and stays in the metadata for a grace period)
         * @description Gives a saml provider of the scope's own level a new SP key pair, current at once (it signs the AuthnRequests from
         *     now on); the previous one still decrypts assertions and stays in the metadata for the grace period, in place of any
         *     earlier one. Another type of provider: 422, field `providerId`; an inherited application provider: 403, as for updates.
         *
         *     Requires `auth_providers:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["RotateSamlSpKeyInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/auth-providers/{providerId}/rotate-sp-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a saml provider’s SP key (the previous one still decrypts and stays in the metadata for a grace period)
         * @description Gives a saml provider of the scope's own level a new SP key pair, current at once (it signs the AuthnRequests from
         *     now on); the previous one still decrypts assertions and stays in the metadata for the grace period, in place of any
         *     earlier one. Another type of provider: 422, field `providerId`; an inherited application provider: 403, as for updates.
         *
         *     Requires `auth_providers:write`. In a tenant scope also `tenant_overrides:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["RotateSamlSpKeyInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth-clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List OAuth clients
         * @description The OAuth clients of the application, or of one tenant in a tenant scope (M2M credentials are listed apart).
         *
         *     Requires `oauth_clients:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["ListOAuthClients"];
        put?: never;
        /**
         * Register an OAuth client (a web client’s secret is in the response only)
         * @description Registers an OAuth client. A web client's secret is in this response only.
         *
         *     Requires `oauth_clients:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["CreateOAuthClient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/oauth-clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List OAuth clients
         * @description The OAuth clients of the application, or of one tenant in a tenant scope (M2M credentials are listed apart).
         *
         *     Requires `oauth_clients:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["ListOAuthClientsInApplication"];
        put?: never;
        /**
         * Register an OAuth client (a web client’s secret is in the response only)
         * @description Registers an OAuth client. A web client's secret is in this response only.
         *
         *     Requires `oauth_clients:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["CreateOAuthClientInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/oauth-clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List OAuth clients
         * @description The OAuth clients of the application, or of one tenant in a tenant scope (M2M credentials are listed apart).
         *
         *     Requires `oauth_clients:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["ListOAuthClientsInTenant"];
        put?: never;
        /**
         * Register an OAuth client (a web client’s secret is in the response only)
         * @description Registers an OAuth client. A web client's secret is in this response only.
         *
         *     Requires `oauth_clients:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["CreateOAuthClientInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth-clients/{clientId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an OAuth client
         * @description One OAuth client.
         *
         *     Requires `oauth_clients:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetOAuthClient"];
        put?: never;
        post?: never;
        /**
         * Delete an OAuth client
         * @description Deletes an OAuth client: its client_id stops working at once. Revoking the tokens it already obtained is the
         *     authorization server's business.
         *
         *     Requires `oauth_clients:delete`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        delete: operations["DeleteOAuthClient"];
        options?: never;
        head?: never;
        /**
         * Update an OAuth client
         * @description Changes an OAuth client's name, redirect URIs, allowed origins, login URI, ID token signing algorithm, management API
         *     access or (web) token endpoint authentication.
         *
         *     Requires `oauth_clients:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        patch: operations["UpdateOAuthClient"];
        trace?: never;
    };
    "/applications/{appId}/oauth-clients/{clientId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an OAuth client
         * @description One OAuth client.
         *
         *     Requires `oauth_clients:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetOAuthClientInApplication"];
        put?: never;
        post?: never;
        /**
         * Delete an OAuth client
         * @description Deletes an OAuth client: its client_id stops working at once. Revoking the tokens it already obtained is the
         *     authorization server's business.
         *
         *     Requires `oauth_clients:delete`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        delete: operations["DeleteOAuthClientInApplication"];
        options?: never;
        head?: never;
        /**
         * Update an OAuth client
         * @description Changes an OAuth client's name, redirect URIs, allowed origins, login URI, ID token signing algorithm, management API
         *     access or (web) token endpoint authentication.
         *
         *     Requires `oauth_clients:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        patch: operations["UpdateOAuthClientInApplication"];
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/oauth-clients/{clientId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an OAuth client
         * @description One OAuth client.
         *
         *     Requires `oauth_clients:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetOAuthClientInTenant"];
        put?: never;
        post?: never;
        /**
         * Delete an OAuth client
         * @description Deletes an OAuth client: its client_id stops working at once. Revoking the tokens it already obtained is the
         *     authorization server's business.
         *
         *     Requires `oauth_clients:delete`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        delete: operations["DeleteOAuthClientInTenant"];
        options?: never;
        head?: never;
        /**
         * Update an OAuth client
         * @description Changes an OAuth client's name, redirect URIs, allowed origins, login URI, ID token signing algorithm, management API
         *     access or (web) token endpoint authentication.
         *
         *     Requires `oauth_clients:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        patch: operations["UpdateOAuthClientInTenant"];
        trace?: never;
    };
    "/oauth-clients/{clientId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a web client’s secret (the previous one stays valid for a grace period)
         * @description Gives a web client a new secret, valid at once; the previous one keeps working for the grace period. Public
         *     clients have no secret (422, field `clientId`).
         *
         *     Requires `oauth_clients:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["RotateOAuthClientSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/oauth-clients/{clientId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a web client’s secret (the previous one stays valid for a grace period)
         * @description Gives a web client a new secret, valid at once; the previous one keeps working for the grace period. Public
         *     clients have no secret (422, field `clientId`).
         *
         *     Requires `oauth_clients:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["RotateOAuthClientSecretInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/oauth-clients/{clientId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate a web client’s secret (the previous one stays valid for a grace period)
         * @description Gives a web client a new secret, valid at once; the previous one keeps working for the grace period. Public
         *     clients have no secret (422, field `clientId`).
         *
         *     Requires `oauth_clients:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["RotateOAuthClientSecretInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/m2m-credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List M2M credentials
         * @description The M2M credentials of the application, or of one tenant in a tenant scope; revoked ones are listed with `revokedAt`.
         *
         *     Requires `m2m_credentials:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["ListM2MCredentials"];
        put?: never;
        /**
         * Create M2M credentials (the response alone holds the client secret)
         * @description Creates M2M credentials. A secret method's secret is in this response only.
         *
         *     Requires `m2m_credentials:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["CreateM2MCredential"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/m2m-credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List M2M credentials
         * @description The M2M credentials of the application, or of one tenant in a tenant scope; revoked ones are listed with `revokedAt`.
         *
         *     Requires `m2m_credentials:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["ListM2MCredentialsInApplication"];
        put?: never;
        /**
         * Create M2M credentials (the response alone holds the client secret)
         * @description Creates M2M credentials. A secret method's secret is in this response only.
         *
         *     Requires `m2m_credentials:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["CreateM2MCredentialInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/m2m-credentials": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List M2M credentials
         * @description The M2M credentials of the application, or of one tenant in a tenant scope; revoked ones are listed with `revokedAt`.
         *
         *     Requires `m2m_credentials:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["ListM2MCredentialsInTenant"];
        put?: never;
        /**
         * Create M2M credentials (the response alone holds the client secret)
         * @description Creates M2M credentials. A secret method's secret is in this response only.
         *
         *     Requires `m2m_credentials:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["CreateM2MCredentialInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/m2m-credentials/{credentialId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get M2M credentials
         * @description One M2M credential.
         *
         *     Requires `m2m_credentials:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetM2MCredential"];
        put?: never;
        post?: never;
        /**
         * Revoke M2M credentials
         * @description Revokes M2M credentials: their secrets are erased and they get no more tokens. Revoking revoked credentials
         *     changes nothing.
         *
         *     Requires `m2m_credentials:delete`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        delete: operations["RevokeM2MCredential"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/m2m-credentials/{credentialId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get M2M credentials
         * @description One M2M credential.
         *
         *     Requires `m2m_credentials:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetM2MCredentialInApplication"];
        put?: never;
        post?: never;
        /**
         * Revoke M2M credentials
         * @description Revokes M2M credentials: their secrets are erased and they get no more tokens. Revoking revoked credentials
         *     changes nothing.
         *
         *     Requires `m2m_credentials:delete`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        delete: operations["RevokeM2MCredentialInApplication"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/m2m-credentials/{credentialId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get M2M credentials
         * @description One M2M credential.
         *
         *     Requires `m2m_credentials:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetM2MCredentialInTenant"];
        put?: never;
        post?: never;
        /**
         * Revoke M2M credentials
         * @description Revokes M2M credentials: their secrets are erased and they get no more tokens. Revoking revoked credentials
         *     changes nothing.
         *
         *     Requires `m2m_credentials:delete`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        delete: operations["RevokeM2MCredentialInTenant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/m2m-credentials/{credentialId}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate M2M credentials’ secret (the previous one stays valid for a grace period)
         * @description Gives the credential a new secret, valid at once; the previous one keeps working for the grace period. Revoked and
         *     private_key_jwt credentials cannot be rotated (422, field `credentialId`).
         *
         *     Requires `m2m_credentials:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["RotateM2MCredential"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/m2m-credentials/{credentialId}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate M2M credentials’ secret (the previous one stays valid for a grace period)
         * @description Gives the credential a new secret, valid at once; the previous one keeps working for the grace period. Revoked and
         *     private_key_jwt credentials cannot be rotated (422, field `credentialId`).
         *
         *     Requires `m2m_credentials:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["RotateM2MCredentialInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/m2m-credentials/{credentialId}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate M2M credentials’ secret (the previous one stays valid for a grace period)
         * @description Gives the credential a new secret, valid at once; the previous one keeps working for the grace period. Revoked and
         *     private_key_jwt credentials cannot be rotated (422, field `credentialId`).
         *
         *     Requires `m2m_credentials:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["RotateM2MCredentialInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/m2m-credentials/{credentialId}/jwks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Replace the public keys of private_key_jwt M2M credentials
         * @description Replaces the public keys of a private_key_jwt credential (the whole set: to roll a key, upload old and new
         *     together, then the new one alone). Secret-method or revoked credentials: 422, field `credentialId`.
         *
         *     Requires `m2m_credentials:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        put: operations["PutM2MCredentialJwks"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/m2m-credentials/{credentialId}/jwks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Replace the public keys of private_key_jwt M2M credentials
         * @description Replaces the public keys of a private_key_jwt credential (the whole set: to roll a key, upload old and new
         *     together, then the new one alone). Secret-method or revoked credentials: 422, field `credentialId`.
         *
         *     Requires `m2m_credentials:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        put: operations["PutM2MCredentialJwksInApplication"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/m2m-credentials/{credentialId}/jwks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Replace the public keys of private_key_jwt M2M credentials
         * @description Replaces the public keys of a private_key_jwt credential (the whole set: to roll a key, upload old and new
         *     together, then the new one alone). Secret-method or revoked credentials: 422, field `credentialId`.
         *
         *     Requires `m2m_credentials:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        put: operations["PutM2MCredentialJwksInTenant"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/audit-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search audit records, newest first (a tenant scope sees its own)
         * @description The audit records of the application, newest first; in a tenant scope (path or credentials) only that tenant's.
         *
         *     Requires `audit_logs:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["ListAuditLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/audit-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search audit records, newest first (a tenant scope sees its own)
         * @description The audit records of the application, newest first; in a tenant scope (path or credentials) only that tenant's.
         *
         *     Requires `audit_logs:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["ListAuditLogsInApplication"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/audit-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search audit records, newest first (a tenant scope sees its own)
         * @description The audit records of the application, newest first; in a tenant scope (path or credentials) only that tenant's.
         *
         *     Requires `audit_logs:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["ListAuditLogsInTenant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/audit-logs/{recordId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an audit record
         * @description One audit record; one outside the scope's application or tenant is `not_found`.
         *
         *     Requires `audit_logs:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetAuditLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/audit-logs/{recordId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an audit record
         * @description One audit record; one outside the scope's application or tenant is `not_found`.
         *
         *     Requires `audit_logs:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetAuditLogInApplication"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/audit-logs/{recordId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an audit record
         * @description One audit record; one outside the scope's application or tenant is `not_found`.
         *
         *     Requires `audit_logs:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetAuditLogInTenant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/active-users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Distinct users signing in or refreshing, per day, week or month
         * @description Distinct users who signed in or refreshed a token, per period, read from daily rollups. `from` and `to` are ISO dates
         *     (inclusive, UTC, 1970-01-01 or later; default the last 30 days); a week or month the range cuts is counted whole.
         *
         *     Requires `analytics:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetActiveUsers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/analytics/active-users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Distinct users signing in or refreshing, per day, week or month
         * @description Distinct users who signed in or refreshed a token, per period, read from daily rollups. `from` and `to` are ISO dates
         *     (inclusive, UTC, 1970-01-01 or later; default the last 30 days); a week or month the range cuts is counted whole.
         *
         *     Requires `analytics:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetActiveUsersInApplication"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/analytics/active-users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Distinct users signing in or refreshing, per day, week or month
         * @description Distinct users who signed in or refreshed a token, per period, read from daily rollups. `from` and `to` are ISO dates
         *     (inclusive, UTC, 1970-01-01 or later; default the last 30 days); a week or month the range cuts is counted whole.
         *
         *     Requires `analytics:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetActiveUsersInTenant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/sign-ins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign-ins per period by outcome and method
         * @description Sign-in attempts per period, by outcome and method, read from daily rollups; `from`, `to` as for activeUsers, and a
         *     week or month the range cuts is counted whole likewise.
         *
         *     Requires `analytics:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetSignIns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/analytics/sign-ins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign-ins per period by outcome and method
         * @description Sign-in attempts per period, by outcome and method, read from daily rollups; `from`, `to` as for activeUsers, and a
         *     week or month the range cuts is counted whole likewise.
         *
         *     Requires `analytics:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetSignInsInApplication"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/analytics/sign-ins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sign-ins per period by outcome and method
         * @description Sign-in attempts per period, by outcome and method, read from daily rollups; `from`, `to` as for activeUsers, and a
         *     week or month the range cuts is counted whole likewise.
         *
         *     Requires `analytics:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetSignInsInTenant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/analytics/mfa-adoption": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Users with at least one MFA factor, by factor
         * @description Users with at least one MFA factor, by factor.
         *
         *     Requires `analytics:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetMfaAdoption"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/analytics/mfa-adoption": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Users with at least one MFA factor, by factor
         * @description Users with at least one MFA factor, by factor.
         *
         *     Requires `analytics:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetMfaAdoptionInApplication"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/analytics/mfa-adoption": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Users with at least one MFA factor, by factor
         * @description Users with at least one MFA factor, by factor.
         *
         *     Requires `analytics:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetMfaAdoptionInTenant"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-resources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the application’s API resources
         * @description The application's API resources (a tenant scope reads the application's: they serve every tenant).
         *
         *     Requires `api_resources:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["ListApiResources"];
        put?: never;
        /**
         * Register an API resource (application-wide scopes only)
         * @description Registers an API resource of the application (an application-wide scope only).
         *
         *     Requires `api_resources:write`. Application-wide credentials only.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["CreateApiResource"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/api-resources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the application’s API resources
         * @description The application's API resources (a tenant scope reads the application's: they serve every tenant).
         *
         *     Requires `api_resources:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["ListApiResourcesInApplication"];
        put?: never;
        /**
         * Register an API resource (application-wide scopes only)
         * @description Registers an API resource of the application (an application-wide scope only).
         *
         *     Requires `api_resources:write`. Application-wide credentials only.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["CreateApiResourceInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/api-resources": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the application’s API resources
         * @description The application's API resources (a tenant scope reads the application's: they serve every tenant).
         *
         *     Requires `api_resources:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["ListApiResourcesInTenant"];
        put?: never;
        /**
         * Register an API resource (application-wide scopes only)
         * @description Registers an API resource of the application (an application-wide scope only).
         *
         *     Requires `api_resources:write`. Application-wide credentials only.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["CreateApiResourceInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api-resources/{resourceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an API resource
         * @description One API resource.
         *
         *     Requires `api_resources:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetApiResource"];
        put?: never;
        post?: never;
        /**
         * Delete an API resource (application-wide scopes only)
         * @description Deletes an API resource: a grant naming its identifier is then `invalid_target` (an application-wide scope only).
         *
         *     Requires `api_resources:delete`. Application-wide credentials only.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        delete: operations["DeleteApiResource"];
        options?: never;
        head?: never;
        /**
         * Update an API resource (application-wide scopes only)
         * @description Changes an API resource's identifier, name or permissions (an application-wide scope only).
         *
         *     Requires `api_resources:write`. Application-wide credentials only.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        patch: operations["UpdateApiResource"];
        trace?: never;
    };
    "/applications/{appId}/api-resources/{resourceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an API resource
         * @description One API resource.
         *
         *     Requires `api_resources:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetApiResourceInApplication"];
        put?: never;
        post?: never;
        /**
         * Delete an API resource (application-wide scopes only)
         * @description Deletes an API resource: a grant naming its identifier is then `invalid_target` (an application-wide scope only).
         *
         *     Requires `api_resources:delete`. Application-wide credentials only.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        delete: operations["DeleteApiResourceInApplication"];
        options?: never;
        head?: never;
        /**
         * Update an API resource (application-wide scopes only)
         * @description Changes an API resource's identifier, name or permissions (an application-wide scope only).
         *
         *     Requires `api_resources:write`. Application-wide credentials only.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        patch: operations["UpdateApiResourceInApplication"];
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/api-resources/{resourceId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an API resource
         * @description One API resource.
         *
         *     Requires `api_resources:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetApiResourceInTenant"];
        put?: never;
        post?: never;
        /**
         * Delete an API resource (application-wide scopes only)
         * @description Deletes an API resource: a grant naming its identifier is then `invalid_target` (an application-wide scope only).
         *
         *     Requires `api_resources:delete`. Application-wide credentials only.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        delete: operations["DeleteApiResourceInTenant"];
        options?: never;
        head?: never;
        /**
         * Update an API resource (application-wide scopes only)
         * @description Changes an API resource's identifier, name or permissions (an application-wide scope only).
         *
         *     Requires `api_resources:write`. Application-wide credentials only.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        patch: operations["UpdateApiResourceInTenant"];
        trace?: never;
    };
    "/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List invitations (filter: status; a tenant scope lists its own)
         * @description The invitations of the application, or of one tenant (in a tenant scope), oldest first.
         *
         *     Requires `users:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["ListInvitations"];
        put?: never;
        /**
         * Invite an address to a tenant and mail the link
         * @description Invites an address to a tenant and mails the link.
         *
         *     Requires `users:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["SendInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List invitations (filter: status; a tenant scope lists its own)
         * @description The invitations of the application, or of one tenant (in a tenant scope), oldest first.
         *
         *     Requires `users:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["ListInvitationsInApplication"];
        put?: never;
        /**
         * Invite an address to a tenant and mail the link
         * @description Invites an address to a tenant and mails the link.
         *
         *     Requires `users:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["SendInvitationInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List invitations (filter: status; a tenant scope lists its own)
         * @description The invitations of the application, or of one tenant (in a tenant scope), oldest first.
         *
         *     Requires `users:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["ListInvitationsInTenant"];
        put?: never;
        /**
         * Invite an address to a tenant and mail the link
         * @description Invites an address to a tenant and mails the link.
         *
         *     Requires `users:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["SendInvitationInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an invitation
         * @description One invitation; one of another tenant or application is `not_found`.
         *
         *     Requires `users:read`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        get: operations["GetInvitation"];
        put?: never;
        post?: never;
        /**
         * Revoke an invitation: its link stops working
         * @description Revokes an invitation: its link stops working. One accepted already: 422 (field `invitationId`: remove the member
         *     instead). Revoked already: unchanged.
         *
         *     Requires `users:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        delete: operations["RevokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an invitation
         * @description One invitation; one of another tenant or application is `not_found`.
         *
         *     Requires `users:read`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        get: operations["GetInvitationInApplication"];
        put?: never;
        post?: never;
        /**
         * Revoke an invitation: its link stops working
         * @description Revokes an invitation: its link stops working. One accepted already: 422 (field `invitationId`: remove the member
         *     instead). Revoked already: unchanged.
         *
         *     Requires `users:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        delete: operations["RevokeInvitationInApplication"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an invitation
         * @description One invitation; one of another tenant or application is `not_found`.
         *
         *     Requires `users:read`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        get: operations["GetInvitationInTenant"];
        put?: never;
        post?: never;
        /**
         * Revoke an invitation: its link stops working
         * @description Revokes an invitation: its link stops working. One accepted already: 422 (field `invitationId`: remove the member
         *     instead). Revoked already: unchanged.
         *
         *     Requires `users:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        delete: operations["RevokeInvitationInTenant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invitations/{invitationId}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail a new link (the previous one stops working)
         * @description Mails a new link, valid for the invitation's number of days from now; the previous link stops working. An expired
         *     invitation is pending again, unless the address is a member now or has another invitation pending (409); an
         *     accepted or revoked one is not sent (422, field `invitationId`). Its roles are given anew: as sending it, this takes
         *     `role_assignments:write` and every permission they hold (403).
         *
         *     Requires `users:write`.
         *
         *     The application, and the tenant if any, are those of the credentials.
         */
        post: operations["ResendInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/invitations/{invitationId}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail a new link (the previous one stops working)
         * @description Mails a new link, valid for the invitation's number of days from now; the previous link stops working. An expired
         *     invitation is pending again, unless the address is a member now or has another invitation pending (409); an
         *     accepted or revoked one is not sent (422, field `invitationId`). Its roles are given anew: as sending it, this takes
         *     `role_assignments:write` and every permission they hold (403).
         *
         *     Requires `users:write`.
         *
         *     Acts on application `appId`; the tenant, if any, is that of the credentials.
         */
        post: operations["ResendInvitationInApplication"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/invitations/{invitationId}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Mail a new link (the previous one stops working)
         * @description Mails a new link, valid for the invitation's number of days from now; the previous link stops working. An expired
         *     invitation is pending again, unless the address is a member now or has another invitation pending (409); an
         *     accepted or revoked one is not sent (422, field `invitationId`). Its roles are given anew: as sending it, this takes
         *     `role_assignments:write` and every permission they hold (403).
         *
         *     Requires `users:write`.
         *
         *     Acts on tenant `tenantId` of application `appId`, always.
         */
        post: operations["ResendInvitationInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the application’s custom domains
         * @description The custom domains of the application or, with `tenantId` (or tenant-scoped credentials), of that tenant.
         *
         *     Requires `domains:read`.
         */
        get: operations["ListDomains"];
        put?: never;
        /**
         * Add a custom domain to the application
         * @description Adds a custom domain to the application or, with `tenantId`, to a tenant (needs `authIsolation` = `isolated`,
         *     else 409 `tenant_customization_disabled`). It starts unverified, with the TXT record to publish.
         *
         *     Requires `domains:write`. In a tenant scope also `tenant_overrides:write`.
         */
        post: operations["CreateDomain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/domains/{domainId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a custom domain
         * @description Removes a custom domain. A verified one's sign-ins end with it (browser sessions, grants and tokens made on it, each
         *     recorded `session.revoked` with `after.reason` `domain_deleted`): verified again, by any owner, none of them comes back.
         *
         *     Requires `domains:delete`. In a tenant scope also `tenant_overrides:write`.
         */
        delete: operations["DeleteDomain"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/domains/{domainId}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a custom domain’s DNS TXT record
         * @description Looks up the domain's TXT record `_gatehouse-challenge.<hostname>`. Found with the token: the domain becomes
         *     verified. Otherwise `verified: false` with the reason, and nothing changes; call again once DNS has the record.
         *     A hostname another application has verified: 409 `already_exists`.
         *
         *     Requires `domains:write`. In a tenant scope also `tenant_overrides:write`.
         */
        post: operations["VerifyDomain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a tenant’s custom domains
         * @description The custom domains of the application or, with `tenantId` (or tenant-scoped credentials), of that tenant.
         *
         *     Requires `domains:read`.
         */
        get: operations["ListDomainsInTenant"];
        put?: never;
        /**
         * Add a custom domain to a tenant (needs authIsolation = isolated)
         * @description Adds a custom domain to the application or, with `tenantId`, to a tenant (needs `authIsolation` = `isolated`,
         *     else 409 `tenant_customization_disabled`). It starts unverified, with the TXT record to publish.
         *
         *     Requires `domains:write`. In a tenant scope also `tenant_overrides:write`.
         */
        post: operations["CreateDomainInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/domains/{domainId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a tenant’s custom domain
         * @description Removes a custom domain. A verified one's sign-ins end with it (browser sessions, grants and tokens made on it, each
         *     recorded `session.revoked` with `after.reason` `domain_deleted`): verified again, by any owner, none of them comes back.
         *
         *     Requires `domains:delete`. In a tenant scope also `tenant_overrides:write`.
         */
        delete: operations["DeleteDomainInTenant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/applications/{appId}/tenants/{tenantId}/domains/{domainId}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a tenant’s custom domain’s DNS TXT record
         * @description Looks up the domain's TXT record `_gatehouse-challenge.<hostname>`. Found with the token: the domain becomes
         *     verified. Otherwise `verified: false` with the reason, and nothing changes; call again once DNS has the record.
         *     A hostname another application has verified: 409 `already_exists`.
         *
         *     Requires `domains:write`. In a tenant scope also `tenant_overrides:write`.
         */
        post: operations["VerifyDomainInTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Every error response has this body. */
        ErrorBody: {
            /**
             * @description Machine-readable error code.
             * @enum {string}
             */
            code: "unauthenticated" | "forbidden" | "organization_deactivated" | "not_found" | "method_not_allowed" | "already_exists" | "tenant_auth_data_remains" | "tenant_customization_disabled" | "idempotency_conflict" | "last_sign_in_provider" | "payload_too_large" | "unsupported_media_type" | "validation_error" | "rate_limited" | "internal_error" | "service_unavailable" | "request_header_fields_too_large" | "request_timeout";
            /** @description Human-readable message. */
            message: string;
            /** @description The offending input, on validation errors (and some conflicts). */
            field?: string;
            /** @description Structured particulars, e.g. each tenant and kind of data that blocks a change. */
            details?: {
                [key: string]: string | number | boolean | null;
            }[];
        };
        /**
         * @description How an analytics series groups its days: UTC days, ISO weeks (from Monday), calendar months.
         * @enum {string}
         */
        AnalyticsInterval: "day" | "week" | "month";
        /** @description A management API key. Its secret is stored only as a hash and shown once. */
        ApiKeyFields: {
            /**
             * Format: uuid
             * @description The key's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The application the key is scoped to.
             */
            applicationId: string;
            /**
             * Format: uuid
             * @description The tenant the key is scoped to; null for an application-wide key.
             */
            tenantId: string | null;
            /**
             * Format: uuid
             * @description The user the key is bound to (it acts as them, and works only while they are `active`); null for a standalone key.
             */
            userId: string | null;
            /** @description Display name. */
            name: string;
            /** @description Permissions granted: `resource:action`, `resource:*` or `*`. */
            permissions: string[];
            /**
             * Format: date-time
             * @description When the key stops working; null for never.
             */
            expiresAt: string | null;
            /**
             * Format: date-time
             * @description When the key was revoked; null while it is valid.
             */
            revokedAt: string | null;
            /**
             * Format: date-time
             * @description When the secret was last rotated.
             */
            lastRotatedAt: string | null;
            /**
             * Format: date-time
             * @description When the key was created.
             */
            createdAt: string;
        };
        /**
         * @description One of the application's own APIs (an RFC 8707 resource). A sign-in or client-credentials grant naming its
         *     `identifier` as `resource` gets an ES256 JWT access token for it: `aud` = `identifier`, `sub`, `tenant_id` (a tenant's
         *     sign-in or credential), `roles` (the role keys the subject holds there) and `permissions` (those of this resource's
         *     permissions the subject holds there; also in `scope`). API resources belong to the application and serve every tenant:
         *     tenant-scoped credentials may read them, only application-wide ones change them.
         */
        ApiResourceFields: {
            /**
             * Format: uuid
             * @description The resource's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The application the resource belongs to.
             */
            applicationId: string;
            /** @description The resource indicator a client names as `resource`, and the `aud` of its tokens: an absolute https URI, unique across the service. */
            identifier: string;
            /**
             * @description True when another application registered `identifier` first, before identifiers were unique across the service: a
             *     grant naming it is then `invalid_target` here, until this resource is saved with it again once the other holds it
             *     no longer (409 while it does).
             */
            identifierHeldElsewhere: boolean;
            /** @description Display name. */
            name: string;
            /** @description The permissions the API defines: keys of the application's own permissions (`invoices:approve`). */
            permissions: string[];
            /**
             * Format: date-time
             * @description When the resource was registered.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the resource last changed.
             */
            updatedAt: string;
        };
        /** @description An application: the product whose users sign in through Gatehouse. */
        ApplicationFields: {
            /**
             * Format: uuid
             * @description The application's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The organization that owns it.
             */
            organizationId: string;
            /** @description Display name. */
            name: string;
            /** @description Whether the application has tenants; set at creation and never changed. */
            multiTenant: boolean;
            /** @description How many days its audit records are kept before the retention job deletes them (default 90). */
            auditRetentionDays: number;
            /**
             * Format: date-time
             * @description When the application was created.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the application last changed.
             */
            updatedAt: string;
            /** @description The four switches of a multi-tenant application's tenant customization. */
            tenancyConfig: {
                /** @description Branding of the hosted sign-in page. */
                brandingScope: components["schemas"]["CustomizationScope"];
                /** @description The set of 12 e-mail templates; per tenant means each template may be overridden on its own. */
                emailTemplatesScope: components["schemas"]["CustomizationScope"];
                /** @description The e-mail provider account and From domain. */
                emailProviderScope: components["schemas"]["CustomizationScope"];
                /** @description The authentication stack. */
                authIsolation: components["schemas"]["AuthIsolation"];
            } | null;
        };
        /**
         * @description Whether the recorded event succeeded.
         * @enum {string}
         */
        AuditOutcome: "success" | "failure";
        /** @description One recorded event. Records are append-only: no operation changes or deletes one. */
        AuditRecordFields: {
            /**
             * Format: uuid
             * @description The record's id; records sort by it in time order.
             */
            id: string;
            /**
             * Format: date-time
             * @description When it happened.
             */
            time: string;
            /**
             * Format: uuid
             * @description The application it belongs to.
             */
            applicationId: string;
            /**
             * Format: uuid
             * @description The tenant it concerns; null for the application's own events.
             */
            tenantId: string | null;
            /** @description Who or what an audit record is about: a kind and an id. */
            actor: {
                /** @description What kind: `user`, `api_key`, `m2m_credential`, `oauth_client`, `system`, a resource's name. */
                type: string;
                /** @description Its id; null for a target that has none (a setting of the application). */
                id: string | null;
            };
            /**
             * Format: uuid
             * @description The API key the request authenticated with, when one did (beside a Bearer token the actor is the token's subject).
             */
            apiKeyId: string | null;
            /** @description What happened, as `resource.verb` (`user.created`). */
            action: string;
            /** @description Who or what an audit record is about: a kind and an id. */
            target: {
                /** @description What kind: `user`, `api_key`, `m2m_credential`, `oauth_client`, `system`, a resource's name. */
                type: string;
                /** @description Its id; null for a target that has none (a setting of the application). */
                id: string | null;
            };
            /** @description Whether it succeeded. */
            outcome: components["schemas"]["AuditOutcome"];
            /** @description The id of the request that made it (the `X-Request-Id` response header). */
            requestId: string;
            /** @description The client address of that request; null outside a request and for records older than this field. */
            ip: string | null;
            /** @description The user agent of that request, cut at 512 characters; null when it sent none. */
            userAgent: string | null;
            /** @description What a change left: the target as it was and as it became (never a secret: only the names of secrets set). */
            changes: {
                /** @description The target before the change; null for a creation. */
                before: {
                    [key: string]: unknown;
                } | null;
                /** @description The target after the change; null for a deletion. */
                after: {
                    [key: string]: unknown;
                } | null;
            } | null;
        };
        /**
         * @description Whether tenants share one sign-in surface and user pool, or each has its own.
         * @enum {string}
         */
        AuthIsolation: "shared" | "isolated";
        /**
         * @description An auth provider configuration record: the application's (`tenantId` null) or, while `authIsolation` is
         *     `isolated`, one tenant's own. Every application starts with an enabled `password` provider; the hosted page offers
         *     the enabled sign-in providers in force and nothing else. A tenant with providers of its own uses exactly those, a
         *     tenant without any the application's; a tenant whose own are only `m2m` or `api_keys` (which sign no one in) signs
         *     in with the application's sign-in providers. Secrets are write-only: only their names are shown, in `secretsSet`.
         */
        AuthProviderFields: {
            /**
             * Format: uuid
             * @description The provider's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The application it belongs to.
             */
            applicationId: string;
            /**
             * Format: uuid
             * @description The tenant that owns it; null for an application provider.
             */
            tenantId: string | null;
            /** @description What kind of sign-in it configures. */
            type: components["schemas"]["AuthProviderType"];
            /** @description Display name (e.g. on the sign-in page's button). */
            name: string;
            /**
             * @description Whether users may sign in with it. An m2m or api_keys provider turns nothing on or off: M2M credentials and API keys
             *     work without one; its `enabled` says whether its settings apply.
             */
            enabled: boolean;
            /**
             * @description The type's settings, every field present (defaults filled in). password: `allowSignup`,
             *     `requireEmailVerification`. magic_link: `allowSignup`, `linkLifetimeMinutes` (1–60, default 15: how long a
             *     link or code works), `signInWith` (`link`, `code` or `link_and_code`, default `link`: what the hosted page offers to
             *     mail). oauth:
             *     `provider` (google, github, microsoft, apple, generic), `clientId`, `scopes`, `allowSignup`; generic adds either
             *     `issuer` (an OpenID provider found by discovery) or `authorizationUrl`, `tokenUrl` and `userInfoUrl` (a plain OAuth
             *     2.0 provider), all https; apple adds `teamId`, `keyId`. passkey: `rpName` (the name authenticators show; null:
             *     the surface's), `userVerification` (required, preferred, discouraged; default required: a passkey that verified its
             *     user counts as both factors), `allowSignup` (default false: an address proven by a mailed code gets an account
             *     with the passkey it then makes; else passkeys are added from the account page); the RP ID is the host of the
             *     surface a passkey is registered on. saml: `entityId`, `ssoUrl` (https),
             *     `certificate` (PEM X.509), `signRequests` (AuthnRequests signed with the provider's SP key, RSA-SHA256; its
             *     certificate in the metadata; default false), `emailAttribute`
             *     (the attribute holding the e-mail; else an e-mail NameID), `idpInitiatedLoginUrl` (https; where an IdP-initiated
             *     sign-in sends the browser: the application's page that starts its sign-in, where the user confirms "Continue as
             *     {email}?" before it completes; null: IdP-initiated sign-in refused),
             *     `sloUrl` (https; the IdP's single logout service: its signed LogoutRequests at the provider's `/slo` end the
             *     user's sessions, and a sign-out here goes through it; null: no single logout), `allowSignup`. m2m: `tokenLifetimeSeconds`
             *     (60–3600, default 3600): while enabled, the lifetime of its scope's client-credentials tokens. api_keys: `maxLifetimeDays` (1–3650 or null for no limit): while enabled, a new key of
             *     its scope expires within that many days (a later `expiresAt` is 422; a key asked without one gets the limit), and so
             *     does a key's new secret at rotation and the CLI's recovery key.
             */
            config: {
                [key: string]: unknown;
            };
            /** @description The names of the secrets that are set (oauth: `clientSecret`, or `privateKey` for apple); never their values. */
            secretsSet: string[];
            /**
             * @description oauth only (null for other types), read-only: the redirect URI to register at the upstream provider, fixed per
             *     provider: `{PUBLIC_URL}/auth/callback/{id}`, under the tenant's surface (`{PUBLIC_URL}/t/{tenantId}/…`) for a
             *     tenant's own provider. A sign-in on a custom domain comes back to `https://{domain}/auth/callback/{id}`: register it too.
             */
            callbackUrl: string | null;
            /**
             * @description saml: where the IdP posts its responses (the Assertion Consumer Service, HTTP-POST binding), to register at the IdP;
             *     for a tenant's own provider, under the tenant's surface. IdP-initiated sign-ins on a custom domain post to the
             *     domain's own ACS, `https://{domain}/saml/{id}/acs`: register it too. Null for other types.
             */
            acsUrl: string | null;
            /** @description saml: the service provider's metadata document, whose URL is also its entity id (the assertions' audience). Null for other types. */
            metadataUrl: string | null;
            /** @description For a tenant scope: `customized` for the tenant's own provider, `inherited` for the application's. Null at application scope. */
            source: components["schemas"]["Source"] | null;
            /**
             * Format: date-time
             * @description When the provider was created.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the provider last changed.
             */
            updatedAt: string;
        };
        /**
         * @description A kind of auth provider: a way to sign in, or (`m2m`, `api_keys`) the settings of machine credentials.
         * @enum {string}
         */
        AuthProviderType: "password" | "magic_link" | "oauth" | "passkey" | "saml" | "m2m" | "api_keys";
        /** @description An invoice address. */
        BillingAddressInput: {
            /** @description Street and number (one line, 1 to 200 characters). */
            line1: string;
            /** @description A second line. */
            line2?: string | null;
            /** @description City. */
            city: string;
            /** @description Postal code. */
            postalCode?: string | null;
            /** @description Region or state. */
            region?: string | null;
            /** @description An assigned ISO 3166-1 alpha-2 country code (any case), e.g. `DE`; `XK` too. Reserved ones (`UK`, `EU`) are 422. */
            country: string;
        };
        /** @description Colors to set; a color left out takes its default. */
        BrandingColorsInput: {
            /** @description `#rrggbb`. */
            primary?: string | null;
            /** @description `#rrggbb`. */
            background?: string | null;
            /** @description `#rrggbb`. */
            text?: string | null;
        };
        /**
         * @description Branding of the hosted sign-in pages, as it applies in the scope asked about: the application's (application-wide
         *     credentials), or a tenant's effective branding (the tenant form, or tenant-scoped credentials) with `source`.
         */
        BrandingFields: {
            /** @description The logo (an https URL); null for none. */
            logoUrl: string | null;
            /** @description The favicon (an https URL); null for none. */
            faviconUrl: string | null;
            /** @description The three colors of the hosted sign-in pages, each a `#rrggbb` hex string (lower-case). */
            colors: {
                /** @description Buttons and links. Default `#4f46e5`. */
                primary: string;
                /** @description Page background. Default `#ffffff`. */
                background: string;
                /** @description Body text. Default `#111827`. */
                text: string;
            };
            /**
             * @description Copy overrides of the hosted pages: text key (e.g. `login.title`) → text, for every language, or a language and a
             *     key (`de:login.title`) → text in that language, which wins there over the plain key. Keys not present use the
             *     built-in wording of the page's language (en, de, fr, es). Empty by default.
             */
            copy: {
                [key: string]: string;
            };
            /** @description For a tenant: `customized` when its own override applies, `inherited` when the application's does. Null at application scope. */
            source: components["schemas"]["Source"] | null;
            /**
             * Format: date-time
             * @description When the stored branding last changed; null while the built-in defaults apply.
             */
            updatedAt: string | null;
        };
        /**
         * @description The whole branding: PUT replaces it, and a field left out (or null) takes its built-in default, so `{}` restores
         *     the defaults.
         */
        BrandingInput: {
            /** @description An https URL of at most 2048 characters, or null. */
            logoUrl?: string | null;
            /** @description An https URL of at most 2048 characters, or null. */
            faviconUrl?: string | null;
            /** @description The colors; omitted ones take their defaults. */
            colors?: components["schemas"]["BrandingColorsInput"] | null;
            /**
             * @description Text key → text, at most 100 entries. Keys are keys of the hosted pages' copy, their texts and refusals alike (e.g.
             *     `login.title`, `password.tooShort`; every key is in src/domain/branding/copy/en.ts), alone or after a language of
             *     the pages and `:` (`de:login.title`); values are strings of 1 to 2000 characters, not blank.
             */
            copy?: {
                [key: string]: string;
            } | null;
        };
        /** @description Several permission checks at once. */
        BulkCheckPermissionsInput: {
            /** @description 1 to 100 checks (else 422, field `checks`), of any subjects, answered in this order. */
            checks: components["schemas"]["CheckPermissionInput"][];
        };
        /** @description A permission to check for a subject. */
        CheckPermissionInput: {
            /** @description The user, M2M credential or API key. */
            subject: components["schemas"]["RoleSubjectInput"];
            /** @description A permission key, `resource:action` (lower case letters, digits, `_` and `-`): a built-in one or the application's own. */
            permission: string;
        };
        /** @description A role to check for a subject. */
        CheckRoleInput: {
            /** @description The user, M2M credential or API key. */
            subject: components["schemas"]["RoleSubjectInput"];
            /** @description The role, by key (`tenant_admin`) or id. */
            role: string;
        };
        /** @description A new API key. */
        CreateApiKeyInput: {
            /** @description Display name (1 to 200 characters). */
            name: string;
            /**
             * @description Permissions to grant: `resource:action`, `resource:*` or `*` (else 422, field `permissions`). The caller must hold
             *     every one of them itself (else 403).
             */
            permissions: string[];
            /**
             * Format: uuid
             * @description The tenant the key is scoped to. Defaults to the tenant of the path or credentials; a tenant-scoped credential
             *     may create keys only for its own tenant (else 403).
             */
            tenantId?: string | null;
            /**
             * Format: uuid
             * @description The user the key is bound to (a user-bound key); the user must exist in the key's scope (else 404, field `userId`).
             */
            userId?: string | null;
            /**
             * Format: date-time
             * @description When the key stops working; must be in the future. Omit for a key that does not expire.
             */
            expiresAt?: string | null;
        };
        /** @description A new API resource. */
        CreateApiResourceInput: {
            /**
             * @description The resource indicator: an absolute https URI (at most 2000 printable ASCII characters; scheme and host in lower
             *     case; no fragment or user information), unique across the service, since every application's tokens share the issuer
             *     (else 409), not the management API's audience.
             */
            identifier: string;
            /** @description Display name (1 to 200 characters). */
            name: string;
            /**
             * @description The permissions the API defines: keys of the application's own application-wide permissions (at most 100; an unknown
             *     key is 422, field `permissions`). Default: none.
             */
            permissions?: string[] | null;
            /**
             * @description Permissions the API defines that the application does not have yet, created with the resource in one transaction
             *     (as `createPermission` creates them: its rules, and `permissions:write`, else 403) and added to its `permissions`. A
             *     key already defined is 409 (field `newPermissions[i].key`), and nothing is created. Default: none.
             */
            newPermissions?: components["schemas"]["CreatePermissionInput"][] | null;
        };
        /** @description A new application. */
        CreateApplicationInput: {
            /** @description Display name (1 to 200 characters). */
            name: string;
            /** @description Whether the application has tenants (default false). Fixed after creation. */
            multiTenant?: boolean | null;
            /** @description Initial tenancy switches; multi-tenant applications only. */
            tenancyConfig?: components["schemas"]["TenancyConfigInput"] | null;
        };
        /**
         * @description A new auth provider. One per type in a scope, except OAuth: one per `config.provider`, and any number of `generic`
         *     ones (else 409 `already_exists`).
         */
        CreateAuthProviderInput: {
            /** @description The kind of sign-in. */
            type: components["schemas"]["AuthProviderType"];
            /** @description Display name, 1 to 200 characters; derived from the type (and OAuth provider) when omitted. */
            name?: string | null;
            /** @description Whether users may sign in with it (default true). */
            enabled?: boolean;
            /** @description The type's settings (see `AuthProvider.config`); fields left out take their defaults. Unknown fields: 422 `config.<field>`. */
            config?: {
                [key: string]: unknown;
            } | null;
            /** @description Write-only secrets, e.g. `{"clientSecret": "…"}` (oauth; apple: `privateKey`, the PEM EC P-256 key Apple issues, as its client secret is ES256; another key: 422). Required ones missing: 422 `secrets.<name>`. */
            secrets?: {
                [key: string]: string;
            } | null;
        };
        /** @description A new custom domain. */
        CreateDomainInput: {
            /**
             * @description A fully qualified domain name: at least two labels, no scheme, port, path or trailing dot, not an IP address;
             *     internationalized names in their `xn--` form. Stored lower-case. Already in the application: 409 `already_exists`.
             */
            hostname: string;
        };
        /** @description New M2M credentials. */
        CreateM2MCredentialInput: {
            /** @description Display name (1 to 200 characters). */
            name: string;
            /**
             * @description Permissions its tokens carry: `resource:action`, `resource:*` or `*` (else 422, field `permissions`). The caller
             *     must hold every one of them itself (else 403).
             */
            permissions: string[];
            /**
             * Format: uuid
             * @description The tenant the credential is scoped to (its tokens carry `tenant_id`). Defaults to the tenant of the path or
             *     credentials; a tenant-scoped credential may create credentials only for its own tenant (else 403).
             */
            tenantId?: string | null;
            /** @description How it authenticates; default `client_secret_basic`. */
            authMethod?: components["schemas"]["M2MAuthMethod"] | null;
            /** @description private_key_jwt only, and then required (else 422, field `jwks`): the public keys of its client assertions. */
            jwks?: components["schemas"]["JwksInput"] | null;
        };
        /** @description A new OAuth client. */
        CreateOAuthClientInput: {
            /** @description Display name (1 to 200 characters). */
            name: string;
            /** @description The kind of application; `web` clients get a secret, the others are public and use PKCE. */
            type: components["schemas"]["OAuthClientType"];
            /**
             * @description Redirect URIs, stored and matched exactly (at least one for web, spa and native; none for device; at most 50).
             *     Absolute, without fragment, user information, wildcards or backslashes; an http(s) URI names its host after `//`.
             *     web and spa: https (http only for `localhost`, `127.0.0.1` or `[::1]`, while developing). native: claimed https, a
             *     reverse-domain private-use scheme (`com.example.app:/callback`) or loopback `http://127.0.0.1:{port}` /
             *     `http://[::1]:{port}` (RFC 8252). A refused URI: 422, field `redirectUris[i]`.
             */
            redirectUris?: string[] | null;
            /** @description Post-logout redirect URIs, under the same rules as `redirectUris` (may be empty). */
            postLogoutRedirectUris?: string[] | null;
            /**
             * @description Public clients (spa, native, device) only: origins from which a browser or web view may call the OAuth endpoints for
             *     the client, besides those of its redirect URIs, which a hybrid app's web view (`capacitor://localhost`,
             *     `ionic://localhost`, `http://localhost`) does not share. Each is `scheme://host[:port]` and nothing more: no path
             *     (not even `/`), query, fragment, user information or wildcard, and never `null`; https, http only for `localhost`,
             *     `127.0.0.1` or `[::1]`, or an app's own scheme. Stored lower case without a default port, duplicates dropped; at most
             *     20. A refused origin: 422, field `allowedOrigins[i]`; any on a web client: 422, field `allowedOrigins`.
             */
            allowedOrigins?: string[] | null;
            /**
             * @description The page of the client's application that starts a sign-in (OIDC `initiate_login_uri`; Auth0's "Application Login
             *     URI"), where Gatehouse's links back to the client lead. Optional; web, spa and native clients (device clients have
             *     none). Absolute, without fragment, user information or wildcards; https, or http only for `localhost`, `127.0.0.1`
             *     or `[::1]` while developing (an http one is not given to the OAuth provider's client metadata, which takes https
             *     only). A refused URI: 422, field `initiateLoginUri`.
             */
            initiateLoginUri?: string | null;
            /**
             * Format: uuid
             * @description The tenant the client belongs to. Defaults to the tenant of the path or credentials; a tenant-scoped credential
             *     may create clients only for its own tenant (else 403).
             */
            tenantId?: string | null;
            /**
             * @description Web clients only: `client_secret_basic` (the default) or `client_secret_post`. Public clients are `none` (any
             *     other value: 422).
             */
            tokenEndpointAuthMethod?: components["schemas"]["OAuthClientAuthMethod"] | null;
            /** @description How the client's ID tokens are signed: `ES256` (the default) or `RS256` (any other value: 422). */
            idTokenSigningAlg?: components["schemas"]["IdTokenSigningAlg"] | null;
            /**
             * @description Whether users signing in through the client may obtain management API tokens (default false). True needs
             *     credentials holding every permission (`*`) where the client acts (its tenant, else the application): the client's
             *     tokens act with any signing-in user's permissions (else 403).
             */
            managementApi?: boolean | null;
        };
        /** @description A new custom permission. */
        CreatePermissionInput: {
            /**
             * @description `resource:action`, each part 1 to 64 lower-case letters, digits, `_` or `-` (else 422, field `key`). The resource may
             *     not be one of the management API's (`users:approve`: 422). A key the scope already sees, at its own level or the
             *     other (a tenant's key equal to an application-wide one, or the reverse): 409 `already_exists`.
             */
            key: string;
            /** @description What the permission lets its holder do (at most 500 characters). */
            description?: string | null;
        };
        /** @description A new role assignment. */
        CreateRoleAssignmentInput: {
            /**
             * @description Who gets the role: a user of the application (on a tenant path, a member of that tenant), an API key or M2M
             *     credential of the application, neither revoked nor expired, and when bound to a tenant, to the path's, or an
             *     operator (a user of the organization's console application). Else 404, field `subject.id`.
             */
            subject: components["schemas"]["RoleSubjectInput"];
            /**
             * Format: uuid
             * @description The role: one the scope sees, of its level or above (a tenant's own role only on that tenant's path; on the
             *     application's path, only an application-wide one). Else 404, field `roleId`. The caller must hold its built-in
             *     permissions (else 403). The same role for the same subject in the same place twice: 409 `already_exists`.
             */
            roleId: string;
            /**
             * Format: uuid
             * @description The tenant to assign the role in, for application-wide credentials on a path without one (else the path's or the
             *     credentials' tenant; another tenant of tenant-scoped credentials: 403; another than the path's: 422; unknown: 404).
             *     Without any tenant the role holds in every tenant.
             */
            tenantId?: string | null;
        };
        /** @description A new role. */
        CreateRoleInput: {
            /** @description 1 to 64 lower-case letters, digits, `_` or `-` (else 422); one the scope already sees: 409 `already_exists`. */
            key: string;
            /** @description Display name (1 to 200 characters). */
            name: string;
            /** @description What the role is for (at most 500 characters). */
            description?: string | null;
            /**
             * @description Each a built-in permission, `resource:*`, `*`, or the key of a custom permission the role sees (the application's or,
             *     for a tenant's role, that tenant's): else 422, field `permissions`, naming it. The caller must hold every built-in
             *     permission it grants (else 403).
             */
            permissions: string[];
        };
        /** @description A new tenant. */
        CreateTenantInput: {
            /** @description Display name (1 to 200 characters). */
            name: string;
            /**
             * @description Lower-case letters, digits and hyphens, 1 to 63 characters; one another tenant has: 409. Derived from the name when
             *     omitted (`Crème Brûlée` → `creme-brulee`), with `-2`, `-3`… when another tenant has it.
             */
            slug?: string | null;
        };
        /** @description A new user. */
        CreateUserInput: {
            /** @description E-mail address; unique per pool, compared case-insensitively (else 409 `already_exists`, field `email`). */
            email: string;
            /** @description Display name (1 to 200 characters). */
            name?: string | null;
            /** @description The application's own data about the user: a JSON object of at most 16 KiB. */
            metadata?: {
                [key: string]: unknown;
            } | null;
            /**
             * @description Initial password; it must satisfy the password policy of the user's pool (the application's when `shared`, the
             *     tenant's when `isolated`), else 422 with each violation in `details`. Stored only as an Argon2id hash. Omit for
             *     passwordless users.
             */
            password?: string | null;
            /**
             * Format: uuid
             * @description The tenant the user joins. Defaults to the tenant of the path or credentials; required when the application's
             *     auth is `isolated`. A tenant other than a tenant-scoped credential's own: 403.
             */
            tenantId?: string | null;
        };
        /**
         * @description Whether a feature has one configuration for the whole application or one per tenant.
         * @enum {string}
         */
        CustomizationScope: "application" | "tenant";
        /**
         * @description A custom domain for the hosted sign-in pages: the application's (`tenantId` null) or, while `authIsolation` is
         *     `isolated`, one tenant's. A hostname is unique in the application.
         */
        DomainFields: {
            /**
             * Format: uuid
             * @description The domain's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The application it belongs to.
             */
            applicationId: string;
            /**
             * Format: uuid
             * @description The tenant that owns it; null for an application domain.
             */
            tenantId: string | null;
            /** @description The fully qualified hostname, lower-case (e.g. `login.example.com`). */
            hostname: string;
            /** @description Whether ownership has been proven. */
            verified: boolean;
            /**
             * Format: date-time
             * @description When ownership was proven; null until then.
             */
            verifiedAt: string | null;
            /** @description The token to publish in DNS (see `verificationRecord`). */
            verificationToken: string;
            /** @description The DNS record that proves ownership of a custom domain. */
            verificationRecord: {
                /** @description Always `TXT`. */
                type: string;
                /** @description The record's name: `_gatehouse-challenge.<hostname>`. */
                name: string;
                /** @description The value it must hold: the domain's verification token. */
                value: string;
            };
            /**
             * Format: date-time
             * @description When the domain was added.
             */
            createdAt: string;
        };
        /**
         * @description The order of the deliveries list, by when each mail was queued.
         * @enum {string}
         */
        EmailDeliveryOrder: "oldest" | "newest";
        /**
         * @description Where a mail of the outbox is.
         * @enum {string}
         */
        EmailDeliveryStatus: "queued" | "sent" | "failed";
        /**
         * @description One mail of the outbox, as rendered when it was queued, and its delivery: written in the same transaction as the
         *     change that caused it, then sent by the service's outbox worker with retries (exponential backoff with jitter, a
         *     bounded number of attempts). A mail is sent twice only if a process dies between the provider's acceptance and the
         *     status write, and then with the same `messageId`.
         */
        EmailDeliverySummaryFields: {
            /**
             * Format: uuid
             * @description The delivery's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The tenant the mail is about; null for the application's own.
             */
            tenantId: string | null;
            /** @description Which mail: one of the 12 template keys, or `test` (`POST /email/test`). */
            templateKey: string;
            /** @description The recipient. */
            to: string;
            /** @description Where it is. */
            status: components["schemas"]["EmailDeliveryStatus"];
            /** @description Attempts made so far (a process that died mid-attempt counts one; one the service stopped itself, giving it back, does not). */
            attempts: number;
            /** @description The provider's last error, without secrets; null when the last attempt succeeded or none failed. */
            lastError: string | null;
            /** @description The provider that last tried (at first, the one that applied when the mail was queued). */
            providerType: components["schemas"]["EmailProviderType"] | null;
            /** @description Why nothing left the service although `status` is `sent` (the built-in sender without `SMTP_URL`); else null. */
            note: string | null;
            /** @description The Message-ID header, the same on every attempt. */
            messageId: string;
            /** @description The rendered subject. */
            subject: string;
            /**
             * Format: date-time
             * @description When the mail was queued.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the next attempt is due (while `queued`).
             */
            nextAttemptAt: string;
            /**
             * Format: date-time
             * @description When the provider accepted it; null until then.
             */
            sentAt: string | null;
        };
        /**
         * @description What a DNS record is for.
         * @enum {string}
         */
        EmailDnsRecordPurpose: "spf" | "dkim" | "return_path";
        /**
         * @description The e-mail provider as it applies in the scope asked about: the application's, or a tenant's effective provider
         *     (the tenant form, or tenant-scoped credentials) with `source`. Stored configuration; secrets are never returned.
         */
        EmailProviderFields: {
            /** @description The sending service. */
            type: components["schemas"]["EmailProviderType"];
            /** @description The From address. */
            fromAddress: string;
            /** @description The From display name; null for none. */
            fromName: string | null;
            /** @description A Reply-To address; null for none. */
            replyTo: string | null;
            /** @description SMTP server settings. */
            smtp: {
                /** @description Host name of the server. */
                host: string;
                /** @description Port, 1 to 65535. */
                port: number;
                /** @description User name for authentication; null for none. */
                username: string | null;
                /** @description Transport security. */
                security: components["schemas"]["SmtpSecurity"];
            } | null;
            /** @description Amazon SES settings. */
            ses: {
                /** @description AWS region, e.g. `eu-west-1`. */
                region: string;
                /** @description The access key id (its secret is write-only). */
                accessKeyId: string;
            } | null;
            /** @description Which write-only secrets are stored (e.g. `["password"]`); their values never leave the service. */
            secretsSet: components["schemas"]["EmailProviderSecret"][];
            /** @description For a tenant: `customized` when its own provider applies, `inherited` when the application's does. Null at application scope. */
            source: components["schemas"]["Source"] | null;
            /**
             * Format: date-time
             * @description When the stored settings last changed; null while the built-in sender applies.
             */
            updatedAt: string | null;
        };
        /** @description The whole provider configuration: PUT replaces every setting (secrets excepted, see `secrets`). */
        EmailProviderInput: {
            /** @description The sending service. */
            type: components["schemas"]["EmailProviderType"];
            /** @description The From address; required except for `gatehouse`, whose address is fixed. */
            fromAddress?: string | null;
            /** @description The From display name (1 to 200 characters, one line). */
            fromName?: string | null;
            /** @description A Reply-To address. */
            replyTo?: string | null;
            /** @description Required for `smtp`, refused for other types. */
            smtp?: components["schemas"]["SmtpSettingsInput"] | null;
            /** @description Required for `ses`, refused for other types. */
            ses?: components["schemas"]["SesSettingsInput"] | null;
            /** @description Write-only credentials. */
            secrets?: components["schemas"]["EmailProviderSecretsInput"] | null;
        };
        /**
         * @description A write-only credential of an e-mail provider: it can be set or removed, never read back.
         * @enum {string}
         */
        EmailProviderSecret: "password" | "apiKey" | "secretAccessKey";
        /**
         * @description Write-only credentials: a value sets one, null removes it, and one left out keeps its stored value as long as the
         *     provider type stays the same. Secrets the chosen type does not use are removed.
         */
        EmailProviderSecretsInput: {
            /** @description The SMTP password (type `smtp`). */
            password?: string | null;
            /** @description The API key (types `sendgrid`, `postmark`, `resend`). */
            apiKey?: string | null;
            /** @description The AWS secret access key (type `ses`). */
            secretAccessKey?: string | null;
        };
        /**
         * @description Which service sends an application's (or a tenant's) transactional e-mail.
         * @enum {string}
         */
        EmailProviderType: "gatehouse" | "smtp" | "sendgrid" | "ses" | "postmark" | "resend";
        /**
         * @description The From domain of the scope's effective provider and the DNS records that authenticate its mail: for a provider of
         *     type `smtp`, SPF naming the server, the DKIM key the service signs the mail with (one per owner and domain, made at
         *     the first request), and the return path.
         */
        EmailSenderDomainFields: {
            /** @description The domain of `fromAddress`. */
            domain: string;
            /** @description The effective provider's From address. */
            fromAddress: string;
            /** @description The effective provider's type. */
            providerType: components["schemas"]["EmailProviderType"];
            /** @description For a tenant: `customized` when its own provider applies, `inherited` when the application's does. Null at application scope. */
            source: components["schemas"]["Source"] | null;
            /** @description Where it stands. */
            status: components["schemas"]["EmailSenderDomainStatus"];
            /**
             * Format: date-time
             * @description Since when it is verified; null unless `verified`.
             */
            verifiedAt: string | null;
            /**
             * Format: date-time
             * @description When its records were last checked; null before the first check.
             */
            checkedAt: string | null;
            /** @description The records to publish; empty when `managed`. */
            records: {
                /** @description What it is for. */
                purpose: components["schemas"]["EmailDnsRecordPurpose"];
                /** @description `TXT` or `CNAME`. */
                type: string;
                /** @description The name to publish it at. */
                name: string;
                /** @description Its value (for SPF, a domain that has a record merges the mechanism into it). */
                value: string;
                /** @description Whether the last check found it; null before any check of this value. */
                found: boolean | null;
                /** @description Why the last check did not find it; null otherwise. */
                reason: string | null;
            }[];
        };
        /**
         * @description Where a sender domain stands.
         * @enum {string}
         */
        EmailSenderDomainStatus: "unverified" | "verified" | "managed";
        /**
         * @description One e-mail template (Liquid), as it applies in the scope asked about: the application's, or a tenant's effective
         *     template with `source`. A tenant overrides templates one by one; the others fall back to the application's.
         */
        EmailTemplateFields: {
            /** @description Which e-mail this is. */
            key: components["schemas"]["EmailTemplateKey"];
            /** @description The subject line (one line). */
            subject: string;
            /** @description The HTML body. Outputs are HTML-escaped unless marked `| raw`. */
            html: string;
            /** @description The plain-text body. */
            text: string;
            /** @description The variables the e-mail is rendered with (e.g. `user.name`, `link`, `application.name`). */
            variables: string[];
            /** @description For a tenant: `customized` when its own override applies, `inherited` when the application's does. Null at application scope. */
            source: components["schemas"]["Source"] | null;
            /**
             * Format: date-time
             * @description When the stored template last changed; null while the built-in default applies.
             */
            updatedAt: string | null;
        };
        /**
         * @description A whole template: PUT replaces all three parts. Each must be valid Liquid that renders with the sample variables and
         *     names no variable but the template's `variables` (and what lies below them) and those it binds itself (`assign`,
         *     `capture`, loop variables): else 422 on the part, naming the unknown variable. Every rendering of a part (a preview, a
         *     mail) is refused past 998 characters for the subject, 200000 for html and 100000 for text: 422 `render limit exceeded`
         *     on the part (a mail's flow fails with it).
         */
        EmailTemplateInput: {
            /** @description The subject line: one line, 1 to 500 characters. */
            subject: string;
            /** @description The HTML body, 1 to 100000 characters. */
            html: string;
            /** @description The plain-text body, 1 to 50000 characters. */
            text: string;
        };
        /**
         * @description The 12 transactional e-mails.
         * @enum {string}
         */
        EmailTemplateKey: "verify_email" | "welcome" | "magic_link" | "password_reset" | "password_changed" | "email_otp" | "mfa_enrolled" | "invitation" | "new_sign_in" | "account_locked" | "email_change" | "account_deleted";
        /**
         * @description What to preview: draft parts replace the stored template's, checked as a PUT checks them (the stored parts render as
         *     they are); variables overlay the samples.
         */
        EmailTemplatePreviewInput: {
            /** @description A draft subject. */
            subject?: string | null;
            /** @description A draft HTML body. */
            html?: string | null;
            /** @description A draft plain-text body. */
            text?: string | null;
            /** @description Values to render with, merged over the sample variables (nested objects merge). */
            variables?: {
                [key: string]: unknown;
            } | null;
        };
        /**
         * @description How the ID tokens of an OAuth client are signed (its `id_token_signed_response_alg`): both keys are published at
         *     `/.well-known/jwks.json`. Access tokens are ES256 whatever the client chooses.
         * @enum {string}
         */
        IdTokenSigningAlg: "ES256" | "RS256";
        /** @description A secret to introspect. */
        IntrospectApiKeyInput: {
            /** @description The secret presented as `X-API-Key`. */
            secret: string;
        };
        /**
         * @description An invitation of an e-mail address to one tenant. It sends the `invitation` e-mail template, whose link opens a hosted
         *     page (in the tenant's branding, on the tenant's sign-in surface) where the invitee creates an account, or signs in
         *     with the account the address already has, and becomes a member of the tenant with the invitation's roles. The link
         *     works once.
         */
        InvitationFields: {
            /**
             * Format: uuid
             * @description The invitation's id.
             */
            id: string;
            /** @description The invited address, as given. */
            email: string;
            /**
             * Format: uuid
             * @description The tenant the invitee joins.
             */
            tenantId: string;
            /** @description The roles the invitee gets in the tenant (a role deleted since is left out when it is accepted). */
            roleIds: string[];
            /** @description Where it stands. */
            status: components["schemas"]["InvitationStatus"];
            /**
             * Format: date-time
             * @description When its current link stops working.
             */
            expiresAt: string;
            /**
             * Format: date-time
             * @description When it was accepted; null until then.
             */
            acceptedAt: string | null;
            /**
             * Format: uuid
             * @description The user who accepted it; null until then.
             */
            acceptedUserId: string | null;
            /**
             * Format: date-time
             * @description When it was revoked; null unless it was.
             */
            revokedAt: string | null;
            /**
             * Format: uuid
             * @description The OAuth client whose application the invitee is led to once they accept (the origin of its first redirect URI);
             *     null: none, the page then says to sign in from the application.
             */
            clientId: string | null;
            /** @description Who or what an audit record is about: a kind and an id. */
            invitedBy: {
                /** @description What kind: `user`, `api_key`, `m2m_credential`, `oauth_client`, `system`, a resource's name. */
                type: string;
                /** @description Its id; null for a target that has none (a setting of the application). */
                id: string | null;
            };
            /**
             * Format: date-time
             * @description When it was sent first.
             */
            createdAt: string;
        };
        /**
         * @description Where an invitation stands.
         * @enum {string}
         */
        InvitationStatus: "pending" | "accepted" | "revoked" | "expired";
        /**
         * @description A JSON Web Key Set of public signing keys (RFC 7517): 1 to 10 EC (P-256, P-384, P-521), RSA (2048 to 16384 bits, e odd and at least 3) or
         *     OKP (Ed25519) keys, each with a distinct `kid` (no control or invisible characters), `use` (if any) `sig`. Private
         *     members (`d`, `p`, `q`, `dp`, `dq`, `qi`, `oth`, `k`) are refused: 422 naming the member, e.g. `keys[0].d`. Each key
         *     is kept with `kty`, `kid`, `use`, `alg` and its public parameters (`crv`, `x`, `y`, `n`, `e`) only: other members
         *     (`x5c`, `key_ops`, …) play no part in verifying a client assertion and are not stored.
         */
        JwksInput: {
            /** @description The public keys (JWK objects). */
            keys: {
                [key: string]: unknown;
            }[];
        };
        /**
         * @description How an M2M credential authenticates at the token endpoint (client credentials grant).
         * @enum {string}
         */
        M2MAuthMethod: "client_secret_basic" | "client_secret_post" | "private_key_jwt";
        /**
         * @description Machine-to-machine credentials: an OAuth 2.0 client of the client credentials grant. Its access tokens carry its
         *     `permissions` (and `tenant_id` for a tenant-scoped credential) and work as Bearer tokens on the management API. Its
         *     secret, if any, is never shown after creation or rotation.
         */
        M2MCredentialFields: {
            /**
             * Format: uuid
             * @description The credential's id: the same value as `clientId`.
             */
            id: string;
            /**
             * Format: uuid
             * @description The OAuth 2.0 `client_id` to request tokens with.
             */
            clientId: string;
            /**
             * Format: uuid
             * @description The application the credential belongs to.
             */
            applicationId: string;
            /**
             * Format: uuid
             * @description The tenant the credential (and its tokens) is scoped to; null for an application-wide credential.
             */
            tenantId: string | null;
            /** @description Display name. */
            name: string;
            /** @description Permissions its tokens carry: `resource:action`, `resource:*` or `*`. */
            permissions: string[];
            /** @description How it authenticates at the token endpoint. */
            authMethod: components["schemas"]["M2MAuthMethod"];
            /** @description Whether it has a working secret (secret methods, until revoked). The secret itself is never shown again. */
            hasSecret: boolean;
            /**
             * Format: date-time
             * @description While a rotation's grace period runs: when the previous secret stops working. Null otherwise.
             */
            previousSecretExpiresAt: string | null;
            /** @description private_key_jwt: the public keys its client assertions are verified with; null for secret methods. */
            jwks: {
                [key: string]: unknown;
            } | null;
            /**
             * Format: date-time
             * @description When it was revoked (it gets no more tokens); null while valid.
             */
            revokedAt: string | null;
            /**
             * Format: date-time
             * @description When it was created.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When it last changed.
             */
            updatedAt: string;
        };
        /**
         * @description An M2M credential together with its secret in clear: the answer of creation and of rotation only. The secret is
         *     stored encrypted and cannot be shown again.
         */
        M2MCredentialWithSecretFields: {
            /**
             * Format: uuid
             * @description The credential's id: the same value as `clientId`.
             */
            id: string;
            /**
             * Format: uuid
             * @description The OAuth 2.0 `client_id` to request tokens with.
             */
            clientId: string;
            /**
             * @description The client secret, shown this once: present for client_secret_basic and client_secret_post, null for
             *     private_key_jwt.
             */
            clientSecret: string | null;
            /**
             * Format: uuid
             * @description The application the credential belongs to.
             */
            applicationId: string;
            /**
             * Format: uuid
             * @description The tenant the credential (and its tokens) is scoped to; null for an application-wide credential.
             */
            tenantId: string | null;
            /** @description Display name. */
            name: string;
            /** @description Permissions its tokens carry: `resource:action`, `resource:*` or `*`. */
            permissions: string[];
            /** @description How it authenticates at the token endpoint. */
            authMethod: components["schemas"]["M2MAuthMethod"];
            /** @description Whether it has a working secret. */
            hasSecret: boolean;
            /**
             * Format: date-time
             * @description While a rotation's grace period runs: when the previous secret stops working. Null otherwise.
             */
            previousSecretExpiresAt: string | null;
            /** @description private_key_jwt: the public keys its client assertions are verified with; null for secret methods. */
            jwks: {
                [key: string]: unknown;
            } | null;
            /**
             * Format: date-time
             * @description When it was revoked; null while valid.
             */
            revokedAt: string | null;
            /**
             * Format: date-time
             * @description When it was created.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When it last changed.
             */
            updatedAt: string;
        };
        /**
         * @description Whether users must use a second factor.
         * @enum {string}
         */
        MfaEnforcement: "off" | "optional" | "required";
        /**
         * @description A second factor users may enroll.
         * @enum {string}
         */
        MfaFactor: "totp" | "webauthn" | "email_otp";
        /**
         * @description How an OAuth client authenticates at the token endpoint (its `token_endpoint_auth_method`).
         * @enum {string}
         */
        OAuthClientAuthMethod: "none" | "client_secret_basic" | "client_secret_post";
        /**
         * @description An OAuth 2.0 / OpenID Connect client of the application (or of one tenant): an application that signs users in
         *     through Gatehouse. Its secret, if any, is never shown after creation or rotation.
         */
        OAuthClientFields: {
            /**
             * Format: uuid
             * @description The client's id: the same value as `clientId`.
             */
            id: string;
            /**
             * Format: uuid
             * @description The OAuth 2.0 `client_id`.
             */
            clientId: string;
            /**
             * Format: uuid
             * @description The application the client belongs to.
             */
            applicationId: string;
            /**
             * Format: uuid
             * @description The tenant the client belongs to; null for a client of the whole application.
             */
            tenantId: string | null;
            /** @description Display name (shown on the consent page). */
            name: string;
            /** @description The kind of application; it never changes. */
            type: components["schemas"]["OAuthClientType"];
            /** @description The redirect URIs the client may use, stored with the scheme and an http(s) host in their normal form (lower case, an internationalized host in its ASCII form, `xn--…`) and the rest as written, and matched exactly as stored (no wildcards): a request names one as shown here. */
            redirectUris: string[];
            /** @description Where the client may send users after sign-out, matched exactly; may be empty. */
            postLogoutRedirectUris: string[];
            /**
             * @description Origins (`scheme://host[:port]`, in normal form) from which a browser or web view may call the OAuth endpoints
             *     (token, userinfo, revocation, …) for this client, besides the origins of its http(s) redirect URIs: Auth0's "Allowed
             *     Origins (CORS)", such as `capacitor://localhost` for a hybrid app. Empty for web clients, which are confidential.
             */
            allowedOrigins: string[];
            /**
             * @description The page of the client's application that starts a sign-in (OIDC `initiate_login_uri`), in the normal form of
             *     `redirectUris`; null when none is registered. Gatehouse's links back to the client (a sign-in reached again once
             *     over, an accepted invitation, the welcome mail) lead there, with `iss` (the issuer to sign in at, OIDC Core 4) added
             *     to its query; without one they lead to the origin of a web or SPA client's first redirect URI.
             */
            initiateLoginUri: string | null;
            /** @description How the client authenticates at the token endpoint: `none` for public clients. */
            tokenEndpointAuthMethod: components["schemas"]["OAuthClientAuthMethod"];
            /** @description How the client's ID tokens are signed: `ES256` unless it chose `RS256`. */
            idTokenSigningAlg: components["schemas"]["IdTokenSigningAlg"];
            /**
             * @description Whether users signing in through the client may obtain access tokens for the management API (`resource`
             *     `{PUBLIC_URL}/api/v1`), which act with the signed-in user's own permissions. Off: such a request is refused
             *     (`invalid_target`); its tokens are for userinfo and the application's API resources.
             */
            managementApi: boolean;
            /** @description Whether the client has a secret (web clients). The secret itself is never shown again. */
            hasSecret: boolean;
            /**
             * Format: date-time
             * @description While a rotation's grace period runs: when the previous secret stops working. Null otherwise.
             */
            previousSecretExpiresAt: string | null;
            /**
             * Format: date-time
             * @description When the client was created.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the client last changed.
             */
            updatedAt: string;
        };
        /**
         * @description The kind of application an OAuth client is; it decides how the client authenticates and where it may redirect.
         * @enum {string}
         */
        OAuthClientType: "web" | "spa" | "native" | "device";
        /**
         * @description An OAuth client together with its secret in clear: the answer of creation and of secret rotation only. The secret is
         *     stored encrypted and cannot be shown again.
         */
        OAuthClientWithSecretFields: {
            /**
             * Format: uuid
             * @description The client's id: the same value as `clientId`.
             */
            id: string;
            /**
             * Format: uuid
             * @description The OAuth 2.0 `client_id`.
             */
            clientId: string;
            /**
             * @description The client secret, shown this once: present for web clients (at creation and rotation), null for public clients
             *     (spa, native, device), which have none.
             */
            clientSecret: string | null;
            /**
             * Format: uuid
             * @description The application the client belongs to.
             */
            applicationId: string;
            /**
             * Format: uuid
             * @description The tenant the client belongs to; null for a client of the whole application.
             */
            tenantId: string | null;
            /** @description Display name (shown on the consent page). */
            name: string;
            /** @description The kind of application; it never changes. */
            type: components["schemas"]["OAuthClientType"];
            /** @description The redirect URIs the client may use, stored with the scheme and an http(s) host in their normal form (lower case, an internationalized host in its ASCII form, `xn--…`) and the rest as written, and matched exactly as stored (no wildcards): a request names one as shown here. */
            redirectUris: string[];
            /** @description Where the client may send users after sign-out, matched exactly; may be empty. */
            postLogoutRedirectUris: string[];
            /**
             * @description Origins (`scheme://host[:port]`, in normal form) from which a browser or web view may call the OAuth endpoints
             *     (token, userinfo, revocation, …) for this client, besides the origins of its http(s) redirect URIs: Auth0's "Allowed
             *     Origins (CORS)", such as `capacitor://localhost` for a hybrid app. Empty for web clients, which are confidential.
             */
            allowedOrigins: string[];
            /**
             * @description The page of the client's application that starts a sign-in (OIDC `initiate_login_uri`), in the normal form of
             *     `redirectUris`; null when none is registered. Gatehouse's links back to the client (a sign-in reached again once
             *     over, an accepted invitation, the welcome mail) lead there, with `iss` (the issuer to sign in at, OIDC Core 4) added
             *     to its query; without one they lead to the origin of a web or SPA client's first redirect URI.
             */
            initiateLoginUri: string | null;
            /** @description How the client authenticates at the token endpoint: `none` for public clients. */
            tokenEndpointAuthMethod: components["schemas"]["OAuthClientAuthMethod"];
            /** @description How the client's ID tokens are signed: `ES256` unless it chose `RS256`. */
            idTokenSigningAlg: components["schemas"]["IdTokenSigningAlg"];
            /**
             * @description Whether users signing in through the client may obtain access tokens for the management API (`resource`
             *     `{PUBLIC_URL}/api/v1`), which act with the signed-in user's own permissions. Off: such a request is refused
             *     (`invalid_target`); its tokens are for userinfo and the application's API resources.
             */
            managementApi: boolean;
            /** @description Whether the client has a secret (web clients). */
            hasSecret: boolean;
            /**
             * Format: date-time
             * @description While a rotation's grace period runs: when the previous secret stops working. Null otherwise.
             */
            previousSecretExpiresAt: string | null;
            /**
             * Format: date-time
             * @description When the client was created.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the client last changed.
             */
            updatedAt: string;
        };
        /** @description The organization's billing settings, replaced whole: fields left out are cleared. */
        OrganizationBillingInput: {
            /** @description The plan. */
            plan: components["schemas"]["OrganizationPlan"];
            /** @description Where invoices go (an e-mail address). */
            billingEmail?: string | null;
            /** @description The invoice address. */
            address?: components["schemas"]["BillingAddressInput"] | null;
            /** @description The tax id: 2 to 32 letters, digits, spaces, dots, hyphens or slashes. */
            taxId?: string | null;
        };
        /** @description An organization: the customer account that owns applications. */
        OrganizationFields: {
            /**
             * Format: uuid
             * @description The organization's id.
             */
            id: string;
            /** @description Display name. */
            name: string;
            /** @description Whether its applications are served. */
            status: components["schemas"]["OrganizationStatus"];
            /**
             * Format: date-time
             * @description When the organization was created.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the organization last changed.
             */
            updatedAt: string;
            /** @description What invoices of the organization carry. No payment provider is connected: nothing is charged. */
            billing: {
                /** @description The plan. */
                plan: components["schemas"]["OrganizationPlan"];
                /** @description Where invoices go; null when none was given. */
                billingEmail: string | null;
                /** @description The tax id (e.g. a VAT number), upper case; null when none was given. */
                taxId: string | null;
                /** @description A postal address for invoices. */
                address: {
                    /** @description Street and number. */
                    line1: string;
                    /** @description A second line (suite, building); null when none. */
                    line2: string | null;
                    /** @description City. */
                    city: string;
                    /** @description Postal code; null when none. */
                    postalCode: string | null;
                    /** @description Region or state; null when none. */
                    region: string | null;
                    /** @description ISO 3166-1 alpha-2 country code, upper case. */
                    country: string;
                } | null;
            };
        };
        /**
         * @description The plan an organization is billed for. Recorded for invoicing only: no plan changes what the service allows.
         * @enum {string}
         */
        OrganizationPlan: "free" | "starter" | "pro" | "enterprise";
        /**
         * @description Whether an organization's applications are served.
         * @enum {string}
         */
        OrganizationStatus: "active" | "deactivated";
        /**
         * @description A permission: a built-in one of the management API (`users:read`, …), or one an application defines for its own API
         *     (`invoices:approve`), application-wide or a tenant's own. Roles bundle them.
         */
        PermissionFields: {
            /**
             * Format: uuid
             * @description The permission's id. A built-in permission's id is the same in every application: SHA-256 of
             *     `gatehouse:permission:{key}`, its first 128 bits shaped as a UUIDv7 (version 7, RFC 9562 variant).
             */
            id: string;
            /** @description `resource:action`, lower-case letters, digits, `_` and `-` in each part. */
            key: string;
            /** @description What the permission lets its holder do; empty when none was given. */
            description: string;
            /** @description True for the management API's own permissions, which cannot be created or deleted. */
            builtIn: boolean;
            /**
             * Format: uuid
             * @description The tenant a custom permission belongs to; null for an application-wide or built-in one.
             */
            tenantId: string | null;
            /**
             * Format: date-time
             * @description When the custom permission was created; null for a built-in one.
             */
            createdAt: string | null;
        };
        /**
         * @description A policy as it applies in the scope asked about: the application's (application-wide credentials), or a tenant's
         *     effective policy (the tenant form, or tenant-scoped credentials), with `source`.
         */
        PolicyFields: {
            /** @description Always `password`. */
            kind: components["schemas"]["PolicyKind"];
            /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
            source: components["schemas"]["Source"] | null;
            /**
             * Format: date-time
             * @description When the stored policy last changed; null while the built-in default applies.
             */
            updatedAt: string | null;
            /** @description Minimum length in characters (Unicode code points), 8 to 128. Default 8. */
            minLength: number;
            /** @description An upper-case letter is required. Default false (NIST SP 800-63B: no composition rules). */
            requireUppercase: boolean;
            /** @description A lower-case letter is required. Default false (NIST SP 800-63B: no composition rules). */
            requireLowercase: boolean;
            /** @description A digit is required. Default false (NIST SP 800-63B: no composition rules). */
            requireDigit: boolean;
            /** @description A symbol (anything neither letter nor digit, spaces included) is required. Default false. */
            requireSymbol: boolean;
            /** @description Days after which a password must be changed, 1 to 3650; null (the default) for never. */
            maxAge: number | null;
            /** @description The most common passwords are refused. Default true. */
            disallowCommon: boolean;
            /** @description How many previous passwords may not be reused, 0 to 24. Default 0. */
            historyCount: number;
        } | {
            /** @description Always `mfa`. */
            kind: components["schemas"]["PolicyKind"];
            /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
            source: components["schemas"]["Source"] | null;
            /**
             * Format: date-time
             * @description When the stored policy last changed; null while the built-in default applies.
             */
            updatedAt: string | null;
            /** @description Whether a second factor is asked for. Default `optional`. */
            enforcement: components["schemas"]["MfaEnforcement"];
            /** @description The factors users may enroll, without repeats; not empty unless enforcement is `off`. Default `totp`, `email_otp`. */
            factors: components["schemas"]["MfaFactor"][];
            /** @description Days a browser that passed MFA is remembered, 0 to 365 (0: ask every time). Default 30. */
            rememberDeviceDays: number;
        } | {
            /** @description Always `session`. */
            kind: components["schemas"]["PolicyKind"];
            /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
            source: components["schemas"]["Source"] | null;
            /**
             * Format: date-time
             * @description When the stored policy last changed; null while the built-in default applies.
             */
            updatedAt: string | null;
            /** @description A session unused for this many minutes ends; 5 to 525600 and not above the absolute timeout. Default 4320 (3 days). */
            idleTimeoutMinutes: number;
            /** @description A session ends this many minutes after sign-in, 5 to 525600. Default 43200 (30 days). */
            absoluteTimeoutMinutes: number;
            /** @description A new sign-in ends the user's other sessions (their offline and device grants too). Default false. */
            singleSession: boolean;
            /**
             * @description A sign-in (whatever its first factor) from a browser the user has not signed in from before (a cookie of the hosted pages) mails them
             *     the `new_sign_in` template; their first browser is not news. Default false.
             */
            notifyNewBrowser: boolean;
        } | {
            /** @description Always `lockout`. */
            kind: components["schemas"]["PolicyKind"];
            /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
            source: components["schemas"]["Source"] | null;
            /**
             * Format: date-time
             * @description When the stored policy last changed; null while the built-in default applies.
             */
            updatedAt: string | null;
            /** @description Whether accounts are locked at all. Default true. */
            enabled: boolean;
            /** @description Consecutive failed sign-ins from one client address that lock that address out of the account, 3 to 100. Default 10. */
            maxAttempts: number;
            /** @description Minutes a lock (of an address, of the account) lasts, 1 to 10080; null for until an administrator unlocks the user. Default 15. */
            lockoutMinutes: number | null;
            /** @description Minutes without a failure from an address after which its count starts again, 1 to 10080. Default 15. */
            resetAfterMinutes: number;
            /**
             * @description Client addresses locked out of one account at the same time that lock the whole account (status `locked`), 2 to
             *     1000; null for never (addresses are locked out, the account never). Default 5.
             */
            accountLockAddresses: number | null;
        };
        /**
         * @description A whole policy, for `putPolicy`. Only the fields of the kind being written are allowed (any other: 422 naming it).
         *     PUT replaces: a field left out takes its built-in default, not its previous value.
         */
        PolicyInput: {
            /** @description password: minimum length, 8 to 128. */
            minLength?: number;
            /** @description password: require an upper-case letter. */
            requireUppercase?: boolean;
            /** @description password: require a lower-case letter. */
            requireLowercase?: boolean;
            /** @description password: require a digit. */
            requireDigit?: boolean;
            /** @description password: require a symbol. */
            requireSymbol?: boolean;
            /** @description password: days until a password must be changed, 1 to 3650, or null for never. */
            maxAge?: number | null;
            /** @description password: refuse the most common passwords. */
            disallowCommon?: boolean;
            /** @description password: previous passwords that may not be reused, 0 to 24. */
            historyCount?: number;
            /** @description mfa: whether a second factor is asked for. */
            enforcement?: components["schemas"]["MfaEnforcement"];
            /** @description mfa: the factors users may enroll. */
            factors?: components["schemas"]["MfaFactor"][];
            /** @description mfa: days a browser that passed MFA is remembered, 0 to 365. */
            rememberDeviceDays?: number;
            /** @description session: idle timeout in minutes, 5 to 525600. */
            idleTimeoutMinutes?: number;
            /** @description session: absolute timeout in minutes, 5 to 525600. */
            absoluteTimeoutMinutes?: number;
            /** @description session: a new sign-in ends the user's other sessions. */
            singleSession?: boolean;
            /** @description session: a sign-in from a new browser mails the user `new_sign_in`. */
            notifyNewBrowser?: boolean;
            /** @description lockout: whether accounts are locked at all. */
            enabled?: boolean;
            /** @description lockout: failed sign-ins from one address that lock it out of the account, 3 to 100. */
            maxAttempts?: number;
            /** @description lockout: minutes the lock lasts, 1 to 10080, or null for until unlocked. */
            lockoutMinutes?: number | null;
            /** @description lockout: minutes after which the failure count starts again, 1 to 10080. */
            resetAfterMinutes?: number;
            /** @description lockout: addresses locked out at once that lock the whole account, 2 to 1000, or null for never. */
            accountLockAddresses?: number | null;
        };
        /**
         * @description The four policies of an auth stack.
         * @enum {string}
         */
        PolicyKind: "password" | "mfa" | "session" | "lockout";
        /** @description A role held by a user, M2M credential or API key: in one tenant, or application-wide (in every tenant). */
        RoleAssignmentFields: {
            /**
             * Format: uuid
             * @description The assignment's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The application the assignment belongs to.
             */
            applicationId: string;
            /** @description A user, M2M credential or API key of the application, or an operator of its organization, by type and id. */
            subject: {
                /** @description What kind of subject. */
                type: components["schemas"]["RoleSubjectType"];
                /**
                 * Format: uuid
                 * @description Its id.
                 */
                id: string;
            };
            /**
             * Format: uuid
             * @description The role held.
             */
            roleId: string;
            /**
             * Format: uuid
             * @description The tenant the role is held in; null: held in every tenant (made on the application's path).
             */
            tenantId: string | null;
            /**
             * Format: date-time
             * @description When the role was assigned.
             */
            createdAt: string;
        };
        /** @description A named bundle of permissions, application-wide or a tenant's own, that users, M2M credentials and API keys hold. */
        RoleFields: {
            /**
             * Format: uuid
             * @description The role's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The application the role belongs to.
             */
            applicationId: string;
            /**
             * @description 1 to 64 lower-case letters, digits, `_` or `-`; unique in the application across levels (a tenant's role may not take
             *     an application-wide role's key, nor the reverse). `app_admin`, `tenant_admin` and `member` are built in.
             */
            key: string;
            /** @description Display name. */
            name: string;
            /** @description What the role is for; empty when none was given. */
            description: string;
            /** @description The permissions the role grants: built-in ones, `resource:*`, `*`, and keys of custom permissions. */
            permissions: string[];
            /**
             * Format: uuid
             * @description The tenant the role belongs to; null for an application-wide role.
             */
            tenantId: string | null;
            /** @description True for `app_admin`, `tenant_admin` and `member`, which every application has and cannot delete. */
            builtIn: boolean;
            /**
             * Format: date-time
             * @description When the role was created.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the role last changed.
             */
            updatedAt: string;
        };
        /** @description A user, M2M credential or API key of the application, or an operator of its organization, by type and id. */
        RoleSubjectInput: {
            /** @description What kind of subject. */
            type: components["schemas"]["RoleSubjectType"];
            /**
             * Format: uuid
             * @description Its id.
             */
            id: string;
        };
        /**
         * @description What can hold a role: a user, an M2M credential, an API key or an operator.
         * @enum {string}
         */
        RoleSubjectType: "user" | "m2m_credential" | "api_key" | "operator";
        /** @description How to rotate an M2M credential's secret. */
        RotateM2MCredentialInput: {
            /**
             * @description How long the previous secret keeps working, in seconds: 0 to 2592000 (30 days), default 86400 (24 hours). 0 stops
             *     it at once (e.g. after a leak).
             */
            gracePeriodSeconds?: number | null;
        };
        /** @description How to rotate a client secret. */
        RotateOAuthClientSecretInput: {
            /**
             * @description How long the previous secret keeps working, in seconds: 0 to 2592000 (30 days), default 86400 (24 hours). 0 stops
             *     it at once (e.g. after a leak).
             */
            gracePeriodSeconds?: number | null;
        };
        /** @description How to rotate a saml provider's SP key. */
        RotateSamlSpKeyInput: {
            /**
             * @description How long the previous key keeps decrypting assertions and stays in the metadata, in seconds: 0 to 2592000 (30
             *     days), default 604800 (7 days). 0 drops it at once (e.g. after a leak).
             */
            gracePeriodSeconds?: number | null;
        };
        /** @description An invitation to send. */
        SendInvitationInput: {
            /** @description The address to invite. A member of the tenant already, or an address with a pending invitation to it: 409. */
            email: string;
            /**
             * @description Roles the invitee gets in the tenant: the tenant's own or application-wide ones (else 404, field `roleIds`), at most
             *     20. Giving roles takes `role_assignments:write` and every permission the roles hold (else 403).
             */
            roleIds?: string[] | null;
            /** @description How many days the link works: 1 to 30, default 7. */
            expiresInDays?: number | null;
            /**
             * Format: uuid
             * @description The tenant, for application-wide credentials on the application's path; the tenant path (or tenant credentials)
             *     decides it otherwise. One of them is required (422).
             */
            tenantId?: string | null;
            /**
             * Format: uuid
             * @description An OAuth client the invitee is led to once they accept: one of the application that signs in from a browser (with
             *     a redirect URI), application-wide or the invitation's tenant's own, not revoked (else 422, field `clientId`).
             */
            clientId?: string | null;
        };
        /** @description A test mail to send. */
        SendTestEmailInput: {
            /** @description The recipient. */
            to: string;
        };
        /** @description Amazon SES settings to set. */
        SesSettingsInput: {
            /** @description AWS region, e.g. `eu-west-1`. */
            region: string;
            /** @description The access key id. */
            accessKeyId: string;
        };
        /**
         * @description A session: one sign-in of a user in an application, the browser session of the hosted sign-in with the grants made in
         *     it for one tenant (one per client the user authorized from it); a browser signed in to several tenants of a shared pool
         *     holds a session for each. It ends when revoked, at a sign-out or an account switch in that browser, when the user is
         *     suspended or deleted or leaves its tenant, or when it expires by the session policy (the application's, or the
         *     isolated tenant's whose pool the user is in): once the browser has not used it (an authorization) for
         *     `idleTimeoutMinutes` (default 3 days), and at the latest `absoluteTimeoutMinutes` after the sign-in (default 30 days).
         *     A grant that keeps its user signed in with no browser session holding it (a device's once the browser that approved it
         *     ended its session, an `offline_access` grant after its browser's sign-out or expiry) is a session of its own while it
         *     holds a live token: it has no `ip`, `userAgent` or `methods`, and ends when revoked or when its tokens expire.
         */
        SessionFields: {
            /**
             * Format: uuid
             * @description The session's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The signed-in user.
             */
            userId: string;
            /**
             * Format: uuid
             * @description The tenant the user signed in to; null for a sign-in to the application itself.
             */
            tenantId: string | null;
            /**
             * Format: uuid
             * @description The OAuth client the user signed in through (the first one authorized in the session; a grant's own: its client).
             */
            clientId: string;
            /**
             * Format: date-time
             * @description When the user signed in.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the session was last used: an authorization in it, or a validation of one of its tokens. Kept to the minute
             *     (at most one write per minute per session), so it may lag by up to a minute. A grant's own session: when it last
             *     got a token (its last refresh).
             */
            lastActiveAt: string;
            /**
             * Format: date-time
             * @description When the session ends unless the browser uses it again: the idle timeout after its last use, never past the
             *     absolute timeout after the sign-in. A grant's own session: when its last live token expires unless it refreshes,
             *     never past the grant's end.
             */
            expiresAt: string;
            /** @description The client address the sign-in came from. */
            ip: string | null;
            /** @description The user agent of the sign-in's browser. */
            userAgent: string | null;
            /**
             * @description How the user signed in, in the order proven: the first factor as the type of the auth provider that offers it
             *     (`password`, `magic_link` for a link or an e-mailed code, `passkey`, `oauth`, `saml`), then the second factor when
             *     one was proven (`totp`, `email_otp`, `webauthn`, `recovery_code`), e.g. `["password", "totp"]`; a passkey that
             *     verified its user is both factors and lists `passkey` alone. A sign-in the browser's existing session made for
             *     another tenant lists that session's.
             */
            methods: string[];
        };
        /**
         * @description How the SMTP connection is secured.
         * @enum {string}
         */
        SmtpSecurity: "starttls" | "tls" | "none";
        /** @description SMTP server settings to set. */
        SmtpSettingsInput: {
            /** @description Host name of the server. */
            host: string;
            /** @description Port, 1 to 65535. */
            port: number;
            /** @description User name; with one, `secrets.password` is required. */
            username?: string | null;
            /** @description Transport security; default `starttls`. */
            security?: components["schemas"]["SmtpSecurity"] | null;
        };
        /**
         * @description Where a tenant's effective value comes from (the dashboard's badge).
         * @enum {string}
         */
        Source: "inherited" | "customized";
        /** @description Tenancy switches to set; omitted switches keep their value. */
        TenancyConfigInput: {
            /** @description Branding scope. */
            brandingScope?: components["schemas"]["CustomizationScope"];
            /** @description E-mail templates scope. */
            emailTemplatesScope?: components["schemas"]["CustomizationScope"];
            /** @description E-mail provider scope. */
            emailProviderScope?: components["schemas"]["CustomizationScope"];
            /**
             * @description Authentication isolation. `isolated` → `shared` is refused while any tenant holds tenant-specific auth data; else
             *     the tenants' path surfaces (`/t/{tenant}`) end, and so do the sign-ins made on them (each recorded `session.revoked`
             *     with `after.reason` `auth_isolation_shared`), so going back to `isolated` revives none.
             */
            authIsolation?: components["schemas"]["AuthIsolation"];
        };
        /** @description A tenant of a multi-tenant application: one customer of the application's product. */
        TenantFields: {
            /**
             * Format: uuid
             * @description The tenant's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The application it belongs to.
             */
            applicationId: string;
            /** @description Display name. */
            name: string;
            /** @description URL-safe name, unique in the application. */
            slug: string;
            /**
             * Format: date-time
             * @description When the tenant was created.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the tenant last changed.
             */
            updatedAt: string;
        };
        /** @description Changes to an API resource; fields left out keep their value. */
        UpdateApiResourceInput: {
            /** @description A new identifier (rules as at creation); tokens already issued keep the old audience until they expire. */
            identifier?: string;
            /** @description New display name. */
            name?: string;
            /** @description The complete new list of permissions (rules as at creation). */
            permissions?: string[];
            /**
             * @description Permissions to define and add, as at creation: added to `permissions`, or to the resource's current list when
             *     `permissions` is left out.
             */
            newPermissions?: components["schemas"]["CreatePermissionInput"][];
        };
        /** @description A partial update of an application: omitted fields keep their value. */
        UpdateApplicationInput: {
            /** @description Display name (1 to 200 characters). */
            name?: string;
            /** @description Tenancy switches to change; multi-tenant applications only (else 422, field `tenancyConfig`). */
            tenancyConfig?: components["schemas"]["TenancyConfigInput"];
            /** @description Days the audit records are kept, 1 to 3650 (default 90). */
            auditRetentionDays?: number;
        };
        /** @description A partial update of an auth provider; its type never changes. */
        UpdateAuthProviderInput: {
            /** @description New display name. */
            name?: string;
            /** @description Turn the provider on or off. */
            enabled?: boolean;
            /**
             * @description Settings to change, merged field by field into the stored ones; a null restores a field's default. A field left out
             *     keeps its value, but a default follows the new settings': an OAuth provider moved to another `provider` gets that
             *     one's default `scopes`, unless its scopes were set.
             */
            config?: {
                [key: string]: unknown;
            } | null;
            /** @description Secrets to set (a string) or remove (null); those left out are kept. */
            secrets?: {
                [key: string]: string | null;
            } | null;
        };
        /** @description Changes to an OAuth client; fields left out keep their value. The type and tenant never change. */
        UpdateOAuthClientInput: {
            /** @description New display name. */
            name?: string;
            /** @description The complete new list of redirect URIs (rules as at creation). */
            redirectUris?: string[];
            /** @description The complete new list of post-logout redirect URIs (rules as at creation). */
            postLogoutRedirectUris?: string[] | null;
            /** @description The complete new list of allowed origins (rules as at creation); `[]` removes them all. */
            allowedOrigins?: string[];
            /** @description The client's new login URI (rules as at creation); null removes it. */
            initiateLoginUri?: string | null;
            /** @description Web clients only: `client_secret_basic` or `client_secret_post`. */
            tokenEndpointAuthMethod?: components["schemas"]["OAuthClientAuthMethod"];
            /**
             * @description How the client's ID tokens are signed from now on: `ES256` or `RS256`. Those issued before stay valid as
             *     `id_token_hint`.
             */
            idTokenSigningAlg?: components["schemas"]["IdTokenSigningAlg"];
            /**
             * @description Whether users signing in through the client may obtain management API tokens. Setting it true, and any change to a
             *     client that has it (this update, a secret's rotation), needs credentials holding every permission (`*`) where the
             *     client acts (else 403). Setting it false ends the management API tokens already issued through the client at once.
             */
            managementApi?: boolean;
        };
        /** @description A partial update of the organization. */
        UpdateOrganizationInput: {
            /** @description New display name (1 to 200 characters). */
            name?: string;
        };
        /** @description A partial update of a role: the fields given replace theirs. */
        UpdateRoleInput: {
            /** @description A new key (a built-in role keeps its own: 422). */
            key?: string;
            /** @description Display name. */
            name?: string;
            /** @description What the role is for; null empties it. */
            description?: string | null;
            /** @description The whole new list, as at creation; the caller must hold the built-in permissions it adds (else 403). */
            permissions?: string[];
        };
        /** @description A partial update of a tenant. */
        UpdateTenantInput: {
            /** @description Display name. */
            name?: string;
            /**
             * @description New slug, unique in the application. The old slug's path surface (`/t/{slug}`) ends, and so do the sign-ins made on
             *     it (each recorded `session.revoked` with `after.reason` `slug_changed`), so naming the slug again revives none; the
             *     tenant's id path's stay.
             */
            slug?: string;
        };
        /** @description A partial update of a user: omitted fields keep their value. */
        UpdateUserInput: {
            /** @description New e-mail address, unique in the user's pool. */
            email?: string;
            /** @description New display name. */
            name?: string | null;
            /** @description New password; it must satisfy the password policy of the user's pool. */
            password?: string;
            /**
             * @description The complete list of tenants the user is a member of. Only in `shared` auth isolation (else 422) and only with
             *     application-wide credentials (else 403); every tenant must exist (else 404, field `tenantIds`).
             */
            tenantIds?: string[];
            /**
             * @description The whole new metadata, replacing the old: a JSON object of at most 16 KiB once serialized (else 422, field
             *     `metadata`); `{}` empties it.
             */
            metadata?: {
                [key: string]: unknown;
            };
        };
        /**
         * @description A user's account at an upstream (`oauth`) provider, by which they sign in: made at their first sign-in there (a new
         *     account, or an existing one reached by an address the upstream verified).
         */
        UpstreamLinkFields: {
            /**
             * Format: uuid
             * @description The link's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The user it signs in.
             */
            userId: string;
            /**
             * Format: uuid
             * @description The `oauth` auth provider.
             */
            providerId: string;
            /** @description The account's subject at the upstream (its `sub`, or GitHub's user id). */
            subject: string;
            /**
             * Format: date-time
             * @description When the user first signed in with it.
             */
            createdAt: string;
        };
        /**
         * @description An end user of an application. In `shared` auth isolation a user is one identity usable in every tenant it is a
         *     member of; in `isolated` a user exists in exactly one tenant. The password (if any) is never returned.
         */
        UserFields: {
            /**
             * Format: uuid
             * @description The user's id.
             */
            id: string;
            /**
             * Format: uuid
             * @description The application the user belongs to.
             */
            applicationId: string;
            /** @description E-mail address as given; unique (case-insensitively) per pool: the application when `shared`, the tenant when `isolated`. */
            email: string;
            /** @description Display name; null when none was given. */
            name: string | null;
            /** @description Account state. */
            status: components["schemas"]["UserStatus"];
            /**
             * @description The tenants the user is a member of (exactly one when the application's auth is `isolated`); to a tenant's
             *     credentials, that tenant alone: a user's other tenants are not theirs to know.
             */
            tenantIds: string[];
            /**
             * @description Whether the user proved their e-mail address through the link of a `verify_email` (or `password_reset`) mail. A
             *     self sign-up starts false; a user created through this API counts as verified.
             */
            emailVerified: boolean;
            /** @description The application's own data about the user (a JSON object of at most 16 KiB); `{}` when none. */
            metadata: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When the user was created.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the user last changed.
             */
            updatedAt: string;
        };
        /**
         * @description The state of a user's account.
         * @enum {string}
         */
        UserStatus: "active" | "suspended" | "locked";
        /** @description A token to validate. */
        ValidateSessionInput: {
            /** @description An access token (JWT or opaque) or a refresh token the service issued to a client of the application (1 to 8192 characters). */
            token: string;
        };
    };
    responses: {
        /** @description Missing, unknown, revoked or expired credentials. Codes: `unauthenticated`. */
        Unauthenticated: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The credentials lack the permission, or aim at another tenant than their own. Codes: `forbidden`, `organization_deactivated`. */
        Forbidden: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "WWW-Authenticate": components["headers"]["WWW-Authenticate-Insufficient-Scope"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Absent, or in another application or tenant. Codes: `not_found`. */
        NotFound: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The request line and headers did not arrive in time. The request was not read: no rate-limit headers; the connection closes. Codes: `request_timeout`. */
        RequestTimeout: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description A duplicate, a built-in record that cannot be deleted, the console’s last way to sign in, a tenancy rule, or an `Idempotency-Key` reused for another request or whose first request is still writing (then with `Retry-After`). Codes: `already_exists`, `tenant_auth_data_remains`, `tenant_customization_disabled`, `idempotency_conflict`, `last_sign_in_provider`. */
        Conflict: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The request body is larger than 1 MiB. Codes: `payload_too_large`. */
        PayloadTooLarge: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The request body is not `application/json` (an empty body is no body, whatever its `Content-Type`). Codes: `unsupported_media_type`. */
        UnsupportedMediaType: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description An invalid input; `field` names it. (A request that is not well-formed HTTP/1.1 is one too, on `field` `request`, without rate-limit headers: it was not read.) Codes: `validation_error`. */
        ValidationError: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description Too many requests; retry after `Retry-After` seconds. Codes: `rate_limited`. */
        RateLimited: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The request line and headers exceed 16 KiB (a query string or a header too long). The request was not read: no rate-limit headers; the connection closes. Codes: `request_header_fields_too_large`. */
        RequestHeaderFieldsTooLarge: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description An unexpected failure; idempotent calls may be retried with backoff. Codes: `internal_error`. */
        InternalError: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
        /** @description The service is overloaded (no database connection came free in time); retry after `Retry-After` seconds. Codes: `service_unavailable`. */
        ServiceUnavailable: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ErrorBody"];
            };
        };
    };
    parameters: {
        /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: {
        /** @description Requests allowed per window for these credentials (per client address without any). */
        "X-RateLimit-Limit": number;
        /** @description Requests left in the current window. */
        "X-RateLimit-Remaining": number;
        /** @description Seconds until the current window resets. */
        "X-RateLimit-Reset": number;
        /** @description The request's id: the caller's own `X-Request-Id` when it is sane, else a new one. */
        "X-Request-Id": string;
        /** @description Seconds to wait before retrying. */
        "Retry-After": number;
        /** @description How to authenticate: `Bearer realm="gatehouse"` (or the `X-API-Key` header), with `error="invalid_token"` when the Bearer token sent was refused. */
        "WWW-Authenticate": string;
        /** @description Sent with a 403 when an `Authorization` header was: `Bearer realm="gatehouse", error="insufficient_scope"` (RFC 6750 3.1). */
        "WWW-Authenticate-Insufficient-Scope": string;
        /** @description Present when this is the stored response to an earlier request with the same `Idempotency-Key`. */
        "Idempotent-Replayed": "true";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    GetOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UpdateOrganization: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOrganizationInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PutOrganizationBilling: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrganizationBillingInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeactivateOrganization: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ReactivateOrganization: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                orgId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListManagedApplications: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The applications, by name. */
                        data: {
                            /**
                             * Format: uuid
                             * @description The application's id: the dashboard's `X-Gatehouse-Application`.
                             */
                            id: string;
                            /** @description Display name. */
                            name: string;
                            /** @description Whether the application has tenants. */
                            multiTenant: boolean;
                        }[];
                        /** @description Always null: there is no further page. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListApplications: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The applications of this page. */
                        data: components["schemas"]["ApplicationFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApplicationInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description The application's id.
                         */
                        id: string;
                        /**
                         * Format: uuid
                         * @description The organization that owns it.
                         */
                        organizationId: string;
                        /** @description Display name. */
                        name: string;
                        /** @description Whether the application has tenants; set at creation and never changed. */
                        multiTenant: boolean;
                        /** @description How many days its audit records are kept before the retention job deletes them (default 90). */
                        auditRetentionDays: number;
                        /**
                         * Format: date-time
                         * @description When the application was created.
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @description When the application last changed.
                         */
                        updatedAt: string;
                        /** @description The four switches of a multi-tenant application's tenant customization. */
                        tenancyConfig: {
                            /** @description Branding of the hosted sign-in page. */
                            brandingScope: components["schemas"]["CustomizationScope"];
                            /** @description The set of 12 e-mail templates; per tenant means each template may be overridden on its own. */
                            emailTemplatesScope: components["schemas"]["CustomizationScope"];
                            /** @description The e-mail provider account and From domain. */
                            emailProviderScope: components["schemas"]["CustomizationScope"];
                            /** @description The authentication stack. */
                            authIsolation: components["schemas"]["AuthIsolation"];
                        } | null;
                        /** @description An API key together with its secret: returned only at creation and rotation. */
                        initialApiKey: {
                            /** @description The key. */
                            key: components["schemas"]["ApiKeyFields"];
                            /** @description The secret to send as `X-API-Key`. It is not stored and cannot be shown again. */
                            secret: string;
                        } | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApplicationFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UpdateApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateApplicationInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApplicationFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetApplicationStats: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Users of the application. */
                        users: number;
                        /** @description Tenants of the application. */
                        tenants: number;
                        /**
                         * @description Active users in windows of UTC days ending today, today included: distinct users who signed in or were issued tokens
                         *     (code exchange, refresh), as `activeUsers` counts them; a deleted user no longer counts.
                         */
                        activeUsers: {
                            /** @description Users active today. */
                            day: number;
                            /** @description … in the last 7 days. */
                            week: number;
                            /** @description … in the last 30 days. */
                            month: number;
                        };
                        /** @description Sign-in attempts of the last 30 UTC days, today included, as `signIns` counts them. */
                        signIns: {
                            /** @description Sign-ins that succeeded. */
                            succeeded: number;
                            /** @description Sign-in attempts refused, whatever the reason. */
                            failed: number;
                        };
                        /**
                         * Format: date-time
                         * @description When these figures were computed: each instance keeps them up to a minute, so they may lag by that much.
                         */
                        computedAt: string;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListTenants: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only tenants whose name (in any case) or slug starts with this (1 to 200 characters, not only spaces). */
                search?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The tenants of this page. */
                        data: components["schemas"]["TenantFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTenantInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UpdateTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTenantInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TenantFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetTenantConfiguration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description The tenant.
                         */
                        tenantId: string;
                        /** @description The four switches of a multi-tenant application's tenant customization. */
                        tenancyConfig: {
                            /** @description Branding of the hosted sign-in page. */
                            brandingScope: components["schemas"]["CustomizationScope"];
                            /** @description The set of 12 e-mail templates; per tenant means each template may be overridden on its own. */
                            emailTemplatesScope: components["schemas"]["CustomizationScope"];
                            /** @description The e-mail provider account and From domain. */
                            emailProviderScope: components["schemas"]["CustomizationScope"];
                            /** @description The authentication stack. */
                            authIsolation: components["schemas"]["AuthIsolation"];
                        } | null;
                        /** @description Effective branding of the hosted sign-in page, with `source`. */
                        branding: components["schemas"]["BrandingFields"];
                        /** @description The 12 e-mail templates, each effective on its own, with `source`. */
                        emailTemplates: components["schemas"]["EmailTemplateFields"][];
                        /** @description Effective e-mail provider settings (secrets never shown), with `source`. */
                        emailProvider: components["schemas"]["EmailProviderFields"];
                        /** @description A tenant's effective authentication stack. */
                        auth: {
                            /** @description Whether tenants share the auth stack or each has its own. */
                            authIsolation: components["schemas"]["AuthIsolation"];
                            /** @description `customized` when the tenant has sign-in providers of its own (isolated only), else `inherited` (`m2m` and `api_keys` sign no one in: they do not count). */
                            providersSource: components["schemas"]["Source"];
                            /** @description The auth providers in force for the tenant. */
                            providers: components["schemas"]["AuthProviderFields"][];
                            /** @description All four policies of a scope, each as in `policy`. */
                            policies: {
                                /** @description Password rules, checked whenever a password is set. */
                                password: {
                                    /** @description Always `password`. */
                                    kind: components["schemas"]["PolicyKind"];
                                    /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
                                    source: components["schemas"]["Source"] | null;
                                    /**
                                     * Format: date-time
                                     * @description When the stored policy last changed; null while the built-in default applies.
                                     */
                                    updatedAt: string | null;
                                    /** @description Minimum length in characters (Unicode code points), 8 to 128. Default 8. */
                                    minLength: number;
                                    /** @description An upper-case letter is required. Default false (NIST SP 800-63B: no composition rules). */
                                    requireUppercase: boolean;
                                    /** @description A lower-case letter is required. Default false (NIST SP 800-63B: no composition rules). */
                                    requireLowercase: boolean;
                                    /** @description A digit is required. Default false (NIST SP 800-63B: no composition rules). */
                                    requireDigit: boolean;
                                    /** @description A symbol (anything neither letter nor digit, spaces included) is required. Default false. */
                                    requireSymbol: boolean;
                                    /** @description Days after which a password must be changed, 1 to 3650; null (the default) for never. */
                                    maxAge: number | null;
                                    /** @description The most common passwords are refused. Default true. */
                                    disallowCommon: boolean;
                                    /** @description How many previous passwords may not be reused, 0 to 24. Default 0. */
                                    historyCount: number;
                                };
                                /** @description Multi-factor authentication. */
                                mfa: {
                                    /** @description Always `mfa`. */
                                    kind: components["schemas"]["PolicyKind"];
                                    /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
                                    source: components["schemas"]["Source"] | null;
                                    /**
                                     * Format: date-time
                                     * @description When the stored policy last changed; null while the built-in default applies.
                                     */
                                    updatedAt: string | null;
                                    /** @description Whether a second factor is asked for. Default `optional`. */
                                    enforcement: components["schemas"]["MfaEnforcement"];
                                    /** @description The factors users may enroll, without repeats; not empty unless enforcement is `off`. Default `totp`, `email_otp`. */
                                    factors: components["schemas"]["MfaFactor"][];
                                    /** @description Days a browser that passed MFA is remembered, 0 to 365 (0: ask every time). Default 30. */
                                    rememberDeviceDays: number;
                                };
                                /** @description Session lifetimes. */
                                session: {
                                    /** @description Always `session`. */
                                    kind: components["schemas"]["PolicyKind"];
                                    /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
                                    source: components["schemas"]["Source"] | null;
                                    /**
                                     * Format: date-time
                                     * @description When the stored policy last changed; null while the built-in default applies.
                                     */
                                    updatedAt: string | null;
                                    /** @description A session unused for this many minutes ends; 5 to 525600 and not above the absolute timeout. Default 4320 (3 days). */
                                    idleTimeoutMinutes: number;
                                    /** @description A session ends this many minutes after sign-in, 5 to 525600. Default 43200 (30 days). */
                                    absoluteTimeoutMinutes: number;
                                    /** @description A new sign-in ends the user's other sessions (their offline and device grants too). Default false. */
                                    singleSession: boolean;
                                    /**
                                     * @description A sign-in (whatever its first factor) from a browser the user has not signed in from before (a cookie of the hosted pages) mails them
                                     *     the `new_sign_in` template; their first browser is not news. Default false.
                                     */
                                    notifyNewBrowser: boolean;
                                };
                                /**
                                 * @description Account lockout after consecutive failed sign-ins, counted per account and client address: an address that fails
                                 *     `maxAttempts` times is locked out of that account (the owner elsewhere still signs in); the whole account is locked
                                 *     once `accountLockAddresses` addresses are locked out of it at the same time.
                                 */
                                lockout: {
                                    /** @description Always `lockout`. */
                                    kind: components["schemas"]["PolicyKind"];
                                    /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
                                    source: components["schemas"]["Source"] | null;
                                    /**
                                     * Format: date-time
                                     * @description When the stored policy last changed; null while the built-in default applies.
                                     */
                                    updatedAt: string | null;
                                    /** @description Whether accounts are locked at all. Default true. */
                                    enabled: boolean;
                                    /** @description Consecutive failed sign-ins from one client address that lock that address out of the account, 3 to 100. Default 10. */
                                    maxAttempts: number;
                                    /** @description Minutes a lock (of an address, of the account) lasts, 1 to 10080; null for until an administrator unlocks the user. Default 15. */
                                    lockoutMinutes: number | null;
                                    /** @description Minutes without a failure from an address after which its count starts again, 1 to 10080. Default 15. */
                                    resetAfterMinutes: number;
                                    /**
                                     * @description Client addresses locked out of one account at the same time that lock the whole account (status `locked`), 2 to
                                     *     1000; null for never (addresses are locked out, the account never). Default 5.
                                     */
                                    accountLockAddresses: number | null;
                                };
                            };
                            /** @description The tenant's own custom domains (isolated only). */
                            domains: components["schemas"]["DomainFields"][];
                        };
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListUsers: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
                /** @description Only users of this status. */
                status?: components["schemas"]["UserStatus"];
                /** @description Only the user of this e-mail address, compared as sign-in compares it (case, Unicode forms). */
                email?: string;
                /** @description Only users whose e-mail address starts with this (1 to 320 characters, compared as `email`). */
                emailPrefix?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The users of this page. */
                        data: components["schemas"]["UserFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListUsersInApplication: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
                /** @description Only users of this status. */
                status?: components["schemas"]["UserStatus"];
                /** @description Only the user of this e-mail address, compared as sign-in compares it (case, Unicode forms). */
                email?: string;
                /** @description Only users whose e-mail address starts with this (1 to 320 characters, compared as `email`). */
                emailPrefix?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The users of this page. */
                        data: components["schemas"]["UserFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateUserInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListUsersInTenant: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
                /** @description Only users of this status. */
                status?: components["schemas"]["UserStatus"];
                /** @description Only the user of this e-mail address, compared as sign-in compares it (case, Unicode forms). */
                email?: string;
                /** @description Only users whose e-mail address starts with this (1 to 320 characters, compared as `email`). */
                emailPrefix?: string;
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The users of this page. */
                        data: components["schemas"]["UserFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateUserInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateUserInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UpdateUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetUserInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteUserInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UpdateUserInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetUserInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteUserInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UpdateUserInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateUserInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UnlockUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UnlockUserInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UnlockUserInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ResetUserMfa: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ResetUserMfaInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ResetUserMfaInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SuspendUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SuspendUserInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SuspendUserInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ActivateUser: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ActivateUserInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ActivateUserInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListUserUpstreamLinks: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The links of this page. */
                        data: components["schemas"]["UpstreamLinkFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListUserUpstreamLinksInApplication: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The links of this page. */
                        data: components["schemas"]["UpstreamLinkFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListUserUpstreamLinksInTenant: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The links of this page. */
                        data: components["schemas"]["UpstreamLinkFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteUserUpstreamLink: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                userId: string;
                linkId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteUserUpstreamLinkInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                userId: string;
                linkId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteUserUpstreamLinkInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                userId: string;
                linkId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListUserSessions: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The sessions of this page, oldest first. */
                        data: components["schemas"]["SessionFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RevokeUserSessions: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListUserSessionsInApplication: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The sessions of this page, oldest first. */
                        data: components["schemas"]["SessionFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RevokeUserSessionsInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListUserSessionsInTenant: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The sessions of this page, oldest first. */
                        data: components["schemas"]["SessionFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RevokeUserSessionsInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                userId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListSessions: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The sessions of this page, oldest first. */
                        data: components["schemas"]["SessionFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListSessionsInApplication: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The sessions of this page, oldest first. */
                        data: components["schemas"]["SessionFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListSessionsInTenant: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The sessions of this page, oldest first. */
                        data: components["schemas"]["SessionFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ValidateSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ValidateSessionInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description True while the token is live (not expired, not revoked, a refresh token not yet used), its grant stands, its user
                         *     may sign in (not suspended, not deleted) and its session stands: the browser session's, or for a token that does not
                         *     end with it (`offline_access`, a device's) the grant's own; in a tenant scope, only for a sign-in to that tenant. False for anything else, another application's token included, without saying why.
                         */
                        valid: boolean;
                        /**
                         * @description The token's session, when valid: the browser session that holds its grant, else the grant's own (a device's or an
                         *     offline sign-in whose browser session ended), which `revokeSession` ends with its tokens.
                         */
                        session: components["schemas"]["SessionFields"] | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ValidateSessionInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ValidateSessionInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description True while the token is live (not expired, not revoked, a refresh token not yet used), its grant stands, its user
                         *     may sign in (not suspended, not deleted) and its session stands: the browser session's, or for a token that does not
                         *     end with it (`offline_access`, a device's) the grant's own; in a tenant scope, only for a sign-in to that tenant. False for anything else, another application's token included, without saying why.
                         */
                        valid: boolean;
                        /**
                         * @description The token's session, when valid: the browser session that holds its grant, else the grant's own (a device's or an
                         *     offline sign-in whose browser session ended), which `revokeSession` ends with its tokens.
                         */
                        session: components["schemas"]["SessionFields"] | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ValidateSessionInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ValidateSessionInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description True while the token is live (not expired, not revoked, a refresh token not yet used), its grant stands, its user
                         *     may sign in (not suspended, not deleted) and its session stands: the browser session's, or for a token that does not
                         *     end with it (`offline_access`, a device's) the grant's own; in a tenant scope, only for a sign-in to that tenant. False for anything else, another application's token included, without saying why.
                         */
                        valid: boolean;
                        /**
                         * @description The token's session, when valid: the browser session that holds its grant, else the grant's own (a device's or an
                         *     offline sign-in whose browser session ended), which `revokeSession` ends with its tokens.
                         */
                        session: components["schemas"]["SessionFields"] | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RevokeSession: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetSessionInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RevokeSessionInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetSessionInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RevokeSessionInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                sessionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListApiKeys: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The keys of this page. */
                        data: components["schemas"]["ApiKeyFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The key. */
                        key: components["schemas"]["ApiKeyFields"];
                        /** @description The secret to send as `X-API-Key`. It is not stored and cannot be shown again. */
                        secret: string;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListApiKeysInApplication: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The keys of this page. */
                        data: components["schemas"]["ApiKeyFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateApiKeyInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The key. */
                        key: components["schemas"]["ApiKeyFields"];
                        /** @description The secret to send as `X-API-Key`. It is not stored and cannot be shown again. */
                        secret: string;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListApiKeysInTenant: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The keys of this page. */
                        data: components["schemas"]["ApiKeyFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateApiKeyInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The key. */
                        key: components["schemas"]["ApiKeyFields"];
                        /** @description The secret to send as `X-API-Key`. It is not stored and cannot be shown again. */
                        secret: string;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    IntrospectApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IntrospectApiKeyInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description True only for a key of the caller's application (and tenant, for a tenant scope) that is neither revoked nor expired
                         *     and, bound to a user, whose user is `active`: exactly when the key authenticates.
                         */
                        active: boolean;
                        /** @description The key, when active; null otherwise, so nothing is learnt of unknown, revoked or foreign keys. */
                        key: components["schemas"]["ApiKeyFields"] | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    IntrospectApiKeyInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IntrospectApiKeyInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description True only for a key of the caller's application (and tenant, for a tenant scope) that is neither revoked nor expired
                         *     and, bound to a user, whose user is `active`: exactly when the key authenticates.
                         */
                        active: boolean;
                        /** @description The key, when active; null otherwise, so nothing is learnt of unknown, revoked or foreign keys. */
                        key: components["schemas"]["ApiKeyFields"] | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    IntrospectApiKeyInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["IntrospectApiKeyInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description True only for a key of the caller's application (and tenant, for a tenant scope) that is neither revoked nor expired
                         *     and, bound to a user, whose user is `active`: exactly when the key authenticates.
                         */
                        active: boolean;
                        /** @description The key, when active; null otherwise, so nothing is learnt of unknown, revoked or foreign keys. */
                        key: components["schemas"]["ApiKeyFields"] | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RevokeApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetApiKeyInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RevokeApiKeyInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetApiKeyInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RevokeApiKeyInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RotateApiKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The key. */
                        key: components["schemas"]["ApiKeyFields"];
                        /** @description The secret to send as `X-API-Key`. It is not stored and cannot be shown again. */
                        secret: string;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RotateApiKeyInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The key. */
                        key: components["schemas"]["ApiKeyFields"];
                        /** @description The secret to send as `X-API-Key`. It is not stored and cannot be shown again. */
                        secret: string;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RotateApiKeyInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The key. */
                        key: components["schemas"]["ApiKeyFields"];
                        /** @description The secret to send as `X-API-Key`. It is not stored and cannot be shown again. */
                        secret: string;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListPermissions: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The permissions of this page. */
                        data: components["schemas"]["PermissionFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreatePermission: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePermissionInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListPermissionsInApplication: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The permissions of this page. */
                        data: components["schemas"]["PermissionFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreatePermissionInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePermissionInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListPermissionsInTenant: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The permissions of this page. */
                        data: components["schemas"]["PermissionFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreatePermissionInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePermissionInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PermissionFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeletePermission: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                permissionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeletePermissionInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                permissionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeletePermissionInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                permissionId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListRoles: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The roles of this page. */
                        data: components["schemas"]["RoleFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateRole: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRoleInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListRolesInApplication: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The roles of this page. */
                        data: components["schemas"]["RoleFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateRoleInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRoleInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListRolesInTenant: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The roles of this page. */
                        data: components["schemas"]["RoleFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateRoleInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRoleInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                roleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteRole: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                roleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UpdateRole: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                roleId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateRoleInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetRoleInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                roleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteRoleInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                roleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UpdateRoleInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                roleId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateRoleInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetRoleInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
                roleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteRoleInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                roleId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UpdateRoleInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                roleId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateRoleInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListRoleAssignments: {
        parameters: {
            query?: {
                subjectType?: components["schemas"]["RoleSubjectType"];
                subjectId?: string;
                roleId?: string;
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The assignments of this page. */
                        data: components["schemas"]["RoleAssignmentFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateRoleAssignment: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRoleAssignmentInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleAssignmentFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListRoleAssignmentsInApplication: {
        parameters: {
            query?: {
                subjectType?: components["schemas"]["RoleSubjectType"];
                subjectId?: string;
                roleId?: string;
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The assignments of this page. */
                        data: components["schemas"]["RoleAssignmentFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateRoleAssignmentInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRoleAssignmentInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleAssignmentFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListRoleAssignmentsInTenant: {
        parameters: {
            query?: {
                subjectType?: components["schemas"]["RoleSubjectType"];
                subjectId?: string;
                roleId?: string;
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The assignments of this page. */
                        data: components["schemas"]["RoleAssignmentFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateRoleAssignmentInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateRoleAssignmentInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleAssignmentFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetRoleAssignment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                assignmentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleAssignmentFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteRoleAssignment: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                assignmentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetRoleAssignmentInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                assignmentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleAssignmentFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteRoleAssignmentInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                assignmentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetRoleAssignmentInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
                assignmentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoleAssignmentFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteRoleAssignmentInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                assignmentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CheckPermission: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CheckPermissionInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description True when one of the subject's roles there, or an API key's or M2M credential's own permission list, grants it: the
                         *     permission itself, its resource's wildcard (`invoices:*`) or `*`. False for a subject of another application or
                         *     tenant (a user who is no member of the tenant, whatever application-wide roles they hold), an unknown one, a revoked or expired key or credential, a user who may not sign in now.
                         */
                        allowed: boolean;
                        /** @description The keys of the subject's roles that grant it; a key's or credential's own list is not a role and is not named. */
                        roles: string[];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CheckPermissionInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CheckPermissionInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description True when one of the subject's roles there, or an API key's or M2M credential's own permission list, grants it: the
                         *     permission itself, its resource's wildcard (`invoices:*`) or `*`. False for a subject of another application or
                         *     tenant (a user who is no member of the tenant, whatever application-wide roles they hold), an unknown one, a revoked or expired key or credential, a user who may not sign in now.
                         */
                        allowed: boolean;
                        /** @description The keys of the subject's roles that grant it; a key's or credential's own list is not a role and is not named. */
                        roles: string[];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CheckPermissionInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CheckPermissionInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * @description True when one of the subject's roles there, or an API key's or M2M credential's own permission list, grants it: the
                         *     permission itself, its resource's wildcard (`invoices:*`) or `*`. False for a subject of another application or
                         *     tenant (a user who is no member of the tenant, whatever application-wide roles they hold), an unknown one, a revoked or expired key or credential, a user who may not sign in now.
                         */
                        allowed: boolean;
                        /** @description The keys of the subject's roles that grant it; a key's or credential's own list is not a role and is not named. */
                        roles: string[];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    BulkCheckPermissions: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkCheckPermissionsInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description One answer per check, in order. */
                        results: {
                            /** @description Whether the subject holds the permission, as `checkPermission` answers. */
                            allowed: boolean;
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    BulkCheckPermissionsInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkCheckPermissionsInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description One answer per check, in order. */
                        results: {
                            /** @description Whether the subject holds the permission, as `checkPermission` answers. */
                            allowed: boolean;
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    BulkCheckPermissionsInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BulkCheckPermissionsInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description One answer per check, in order. */
                        results: {
                            /** @description Whether the subject holds the permission, as `checkPermission` answers. */
                            allowed: boolean;
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CheckRole: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CheckRoleInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description True when the subject holds the role there (assigned in the tenant or application-wide); false for any subject that cannot act there. */
                        allowed: boolean;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CheckRoleInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CheckRoleInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description True when the subject holds the role there (assigned in the tenant or application-wide); false for any subject that cannot act there. */
                        allowed: boolean;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CheckRoleInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CheckRoleInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description True when the subject holds the role there (assigned in the tenant or application-wide); false for any subject that cannot act there. */
                        allowed: boolean;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetPolicies: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Password rules, checked whenever a password is set. */
                        password: {
                            /** @description Always `password`. */
                            kind: components["schemas"]["PolicyKind"];
                            /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
                            source: components["schemas"]["Source"] | null;
                            /**
                             * Format: date-time
                             * @description When the stored policy last changed; null while the built-in default applies.
                             */
                            updatedAt: string | null;
                            /** @description Minimum length in characters (Unicode code points), 8 to 128. Default 8. */
                            minLength: number;
                            /** @description An upper-case letter is required. Default false (NIST SP 800-63B: no composition rules). */
                            requireUppercase: boolean;
                            /** @description A lower-case letter is required. Default false (NIST SP 800-63B: no composition rules). */
                            requireLowercase: boolean;
                            /** @description A digit is required. Default false (NIST SP 800-63B: no composition rules). */
                            requireDigit: boolean;
                            /** @description A symbol (anything neither letter nor digit, spaces included) is required. Default false. */
                            requireSymbol: boolean;
                            /** @description Days after which a password must be changed, 1 to 3650; null (the default) for never. */
                            maxAge: number | null;
                            /** @description The most common passwords are refused. Default true. */
                            disallowCommon: boolean;
                            /** @description How many previous passwords may not be reused, 0 to 24. Default 0. */
                            historyCount: number;
                        };
                        /** @description Multi-factor authentication. */
                        mfa: {
                            /** @description Always `mfa`. */
                            kind: components["schemas"]["PolicyKind"];
                            /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
                            source: components["schemas"]["Source"] | null;
                            /**
                             * Format: date-time
                             * @description When the stored policy last changed; null while the built-in default applies.
                             */
                            updatedAt: string | null;
                            /** @description Whether a second factor is asked for. Default `optional`. */
                            enforcement: components["schemas"]["MfaEnforcement"];
                            /** @description The factors users may enroll, without repeats; not empty unless enforcement is `off`. Default `totp`, `email_otp`. */
                            factors: components["schemas"]["MfaFactor"][];
                            /** @description Days a browser that passed MFA is remembered, 0 to 365 (0: ask every time). Default 30. */
                            rememberDeviceDays: number;
                        };
                        /** @description Session lifetimes. */
                        session: {
                            /** @description Always `session`. */
                            kind: components["schemas"]["PolicyKind"];
                            /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
                            source: components["schemas"]["Source"] | null;
                            /**
                             * Format: date-time
                             * @description When the stored policy last changed; null while the built-in default applies.
                             */
                            updatedAt: string | null;
                            /** @description A session unused for this many minutes ends; 5 to 525600 and not above the absolute timeout. Default 4320 (3 days). */
                            idleTimeoutMinutes: number;
                            /** @description A session ends this many minutes after sign-in, 5 to 525600. Default 43200 (30 days). */
                            absoluteTimeoutMinutes: number;
                            /** @description A new sign-in ends the user's other sessions (their offline and device grants too). Default false. */
                            singleSession: boolean;
                            /**
                             * @description A sign-in (whatever its first factor) from a browser the user has not signed in from before (a cookie of the hosted pages) mails them
                             *     the `new_sign_in` template; their first browser is not news. Default false.
                             */
                            notifyNewBrowser: boolean;
                        };
                        /**
                         * @description Account lockout after consecutive failed sign-ins, counted per account and client address: an address that fails
                         *     `maxAttempts` times is locked out of that account (the owner elsewhere still signs in); the whole account is locked
                         *     once `accountLockAddresses` addresses are locked out of it at the same time.
                         */
                        lockout: {
                            /** @description Always `lockout`. */
                            kind: components["schemas"]["PolicyKind"];
                            /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
                            source: components["schemas"]["Source"] | null;
                            /**
                             * Format: date-time
                             * @description When the stored policy last changed; null while the built-in default applies.
                             */
                            updatedAt: string | null;
                            /** @description Whether accounts are locked at all. Default true. */
                            enabled: boolean;
                            /** @description Consecutive failed sign-ins from one client address that lock that address out of the account, 3 to 100. Default 10. */
                            maxAttempts: number;
                            /** @description Minutes a lock (of an address, of the account) lasts, 1 to 10080; null for until an administrator unlocks the user. Default 15. */
                            lockoutMinutes: number | null;
                            /** @description Minutes without a failure from an address after which its count starts again, 1 to 10080. Default 15. */
                            resetAfterMinutes: number;
                            /**
                             * @description Client addresses locked out of one account at the same time that lock the whole account (status `locked`), 2 to
                             *     1000; null for never (addresses are locked out, the account never). Default 5.
                             */
                            accountLockAddresses: number | null;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetPoliciesInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Password rules, checked whenever a password is set. */
                        password: {
                            /** @description Always `password`. */
                            kind: components["schemas"]["PolicyKind"];
                            /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
                            source: components["schemas"]["Source"] | null;
                            /**
                             * Format: date-time
                             * @description When the stored policy last changed; null while the built-in default applies.
                             */
                            updatedAt: string | null;
                            /** @description Minimum length in characters (Unicode code points), 8 to 128. Default 8. */
                            minLength: number;
                            /** @description An upper-case letter is required. Default false (NIST SP 800-63B: no composition rules). */
                            requireUppercase: boolean;
                            /** @description A lower-case letter is required. Default false (NIST SP 800-63B: no composition rules). */
                            requireLowercase: boolean;
                            /** @description A digit is required. Default false (NIST SP 800-63B: no composition rules). */
                            requireDigit: boolean;
                            /** @description A symbol (anything neither letter nor digit, spaces included) is required. Default false. */
                            requireSymbol: boolean;
                            /** @description Days after which a password must be changed, 1 to 3650; null (the default) for never. */
                            maxAge: number | null;
                            /** @description The most common passwords are refused. Default true. */
                            disallowCommon: boolean;
                            /** @description How many previous passwords may not be reused, 0 to 24. Default 0. */
                            historyCount: number;
                        };
                        /** @description Multi-factor authentication. */
                        mfa: {
                            /** @description Always `mfa`. */
                            kind: components["schemas"]["PolicyKind"];
                            /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
                            source: components["schemas"]["Source"] | null;
                            /**
                             * Format: date-time
                             * @description When the stored policy last changed; null while the built-in default applies.
                             */
                            updatedAt: string | null;
                            /** @description Whether a second factor is asked for. Default `optional`. */
                            enforcement: components["schemas"]["MfaEnforcement"];
                            /** @description The factors users may enroll, without repeats; not empty unless enforcement is `off`. Default `totp`, `email_otp`. */
                            factors: components["schemas"]["MfaFactor"][];
                            /** @description Days a browser that passed MFA is remembered, 0 to 365 (0: ask every time). Default 30. */
                            rememberDeviceDays: number;
                        };
                        /** @description Session lifetimes. */
                        session: {
                            /** @description Always `session`. */
                            kind: components["schemas"]["PolicyKind"];
                            /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
                            source: components["schemas"]["Source"] | null;
                            /**
                             * Format: date-time
                             * @description When the stored policy last changed; null while the built-in default applies.
                             */
                            updatedAt: string | null;
                            /** @description A session unused for this many minutes ends; 5 to 525600 and not above the absolute timeout. Default 4320 (3 days). */
                            idleTimeoutMinutes: number;
                            /** @description A session ends this many minutes after sign-in, 5 to 525600. Default 43200 (30 days). */
                            absoluteTimeoutMinutes: number;
                            /** @description A new sign-in ends the user's other sessions (their offline and device grants too). Default false. */
                            singleSession: boolean;
                            /**
                             * @description A sign-in (whatever its first factor) from a browser the user has not signed in from before (a cookie of the hosted pages) mails them
                             *     the `new_sign_in` template; their first browser is not news. Default false.
                             */
                            notifyNewBrowser: boolean;
                        };
                        /**
                         * @description Account lockout after consecutive failed sign-ins, counted per account and client address: an address that fails
                         *     `maxAttempts` times is locked out of that account (the owner elsewhere still signs in); the whole account is locked
                         *     once `accountLockAddresses` addresses are locked out of it at the same time.
                         */
                        lockout: {
                            /** @description Always `lockout`. */
                            kind: components["schemas"]["PolicyKind"];
                            /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
                            source: components["schemas"]["Source"] | null;
                            /**
                             * Format: date-time
                             * @description When the stored policy last changed; null while the built-in default applies.
                             */
                            updatedAt: string | null;
                            /** @description Whether accounts are locked at all. Default true. */
                            enabled: boolean;
                            /** @description Consecutive failed sign-ins from one client address that lock that address out of the account, 3 to 100. Default 10. */
                            maxAttempts: number;
                            /** @description Minutes a lock (of an address, of the account) lasts, 1 to 10080; null for until an administrator unlocks the user. Default 15. */
                            lockoutMinutes: number | null;
                            /** @description Minutes without a failure from an address after which its count starts again, 1 to 10080. Default 15. */
                            resetAfterMinutes: number;
                            /**
                             * @description Client addresses locked out of one account at the same time that lock the whole account (status `locked`), 2 to
                             *     1000; null for never (addresses are locked out, the account never). Default 5.
                             */
                            accountLockAddresses: number | null;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetPoliciesInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Password rules, checked whenever a password is set. */
                        password: {
                            /** @description Always `password`. */
                            kind: components["schemas"]["PolicyKind"];
                            /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
                            source: components["schemas"]["Source"] | null;
                            /**
                             * Format: date-time
                             * @description When the stored policy last changed; null while the built-in default applies.
                             */
                            updatedAt: string | null;
                            /** @description Minimum length in characters (Unicode code points), 8 to 128. Default 8. */
                            minLength: number;
                            /** @description An upper-case letter is required. Default false (NIST SP 800-63B: no composition rules). */
                            requireUppercase: boolean;
                            /** @description A lower-case letter is required. Default false (NIST SP 800-63B: no composition rules). */
                            requireLowercase: boolean;
                            /** @description A digit is required. Default false (NIST SP 800-63B: no composition rules). */
                            requireDigit: boolean;
                            /** @description A symbol (anything neither letter nor digit, spaces included) is required. Default false. */
                            requireSymbol: boolean;
                            /** @description Days after which a password must be changed, 1 to 3650; null (the default) for never. */
                            maxAge: number | null;
                            /** @description The most common passwords are refused. Default true. */
                            disallowCommon: boolean;
                            /** @description How many previous passwords may not be reused, 0 to 24. Default 0. */
                            historyCount: number;
                        };
                        /** @description Multi-factor authentication. */
                        mfa: {
                            /** @description Always `mfa`. */
                            kind: components["schemas"]["PolicyKind"];
                            /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
                            source: components["schemas"]["Source"] | null;
                            /**
                             * Format: date-time
                             * @description When the stored policy last changed; null while the built-in default applies.
                             */
                            updatedAt: string | null;
                            /** @description Whether a second factor is asked for. Default `optional`. */
                            enforcement: components["schemas"]["MfaEnforcement"];
                            /** @description The factors users may enroll, without repeats; not empty unless enforcement is `off`. Default `totp`, `email_otp`. */
                            factors: components["schemas"]["MfaFactor"][];
                            /** @description Days a browser that passed MFA is remembered, 0 to 365 (0: ask every time). Default 30. */
                            rememberDeviceDays: number;
                        };
                        /** @description Session lifetimes. */
                        session: {
                            /** @description Always `session`. */
                            kind: components["schemas"]["PolicyKind"];
                            /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
                            source: components["schemas"]["Source"] | null;
                            /**
                             * Format: date-time
                             * @description When the stored policy last changed; null while the built-in default applies.
                             */
                            updatedAt: string | null;
                            /** @description A session unused for this many minutes ends; 5 to 525600 and not above the absolute timeout. Default 4320 (3 days). */
                            idleTimeoutMinutes: number;
                            /** @description A session ends this many minutes after sign-in, 5 to 525600. Default 43200 (30 days). */
                            absoluteTimeoutMinutes: number;
                            /** @description A new sign-in ends the user's other sessions (their offline and device grants too). Default false. */
                            singleSession: boolean;
                            /**
                             * @description A sign-in (whatever its first factor) from a browser the user has not signed in from before (a cookie of the hosted pages) mails them
                             *     the `new_sign_in` template; their first browser is not news. Default false.
                             */
                            notifyNewBrowser: boolean;
                        };
                        /**
                         * @description Account lockout after consecutive failed sign-ins, counted per account and client address: an address that fails
                         *     `maxAttempts` times is locked out of that account (the owner elsewhere still signs in); the whole account is locked
                         *     once `accountLockAddresses` addresses are locked out of it at the same time.
                         */
                        lockout: {
                            /** @description Always `lockout`. */
                            kind: components["schemas"]["PolicyKind"];
                            /** @description For a tenant: `customized` or `inherited`. Null at application scope. */
                            source: components["schemas"]["Source"] | null;
                            /**
                             * Format: date-time
                             * @description When the stored policy last changed; null while the built-in default applies.
                             */
                            updatedAt: string | null;
                            /** @description Whether accounts are locked at all. Default true. */
                            enabled: boolean;
                            /** @description Consecutive failed sign-ins from one client address that lock that address out of the account, 3 to 100. Default 10. */
                            maxAttempts: number;
                            /** @description Minutes a lock (of an address, of the account) lasts, 1 to 10080; null for until an administrator unlocks the user. Default 15. */
                            lockoutMinutes: number | null;
                            /** @description Minutes without a failure from an address after which its count starts again, 1 to 10080. Default 15. */
                            resetAfterMinutes: number;
                            /**
                             * @description Client addresses locked out of one account at the same time that lock the whole account (status `locked`), 2 to
                             *     1000; null for never (addresses are locked out, the account never). Default 5.
                             */
                            accountLockAddresses: number | null;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                kind: components["schemas"]["PolicyKind"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PutPolicy: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                kind: components["schemas"]["PolicyKind"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PolicyInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RemovePolicy: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                kind: components["schemas"]["PolicyKind"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetPolicyInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                kind: components["schemas"]["PolicyKind"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PutPolicyInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                kind: components["schemas"]["PolicyKind"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PolicyInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RemovePolicyInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                kind: components["schemas"]["PolicyKind"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetPolicyInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
                kind: components["schemas"]["PolicyKind"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PutPolicyInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                kind: components["schemas"]["PolicyKind"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PolicyInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RemovePolicyInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                kind: components["schemas"]["PolicyKind"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetBranding: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BrandingFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PutBranding: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BrandingInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BrandingFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RemoveBrandingOverride: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetBrandingInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BrandingFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PutBrandingInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BrandingInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BrandingFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RemoveBrandingOverrideInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetBrandingInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BrandingFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PutBrandingInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BrandingInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BrandingFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RemoveBrandingOverrideInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetEmailProvider: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailProviderFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PutEmailProvider: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailProviderInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailProviderFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RemoveEmailProviderOverride: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetEmailProviderInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailProviderFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PutEmailProviderInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailProviderInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailProviderFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RemoveEmailProviderOverrideInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetEmailProviderInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailProviderFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PutEmailProviderInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailProviderInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailProviderFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RemoveEmailProviderOverrideInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListEmailTemplates: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The templates of this page. */
                        data: components["schemas"]["EmailTemplateFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListEmailTemplatesInApplication: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The templates of this page. */
                        data: components["schemas"]["EmailTemplateFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListEmailTemplatesInTenant: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The templates of this page. */
                        data: components["schemas"]["EmailTemplateFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetEmailTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                templateKey: components["schemas"]["EmailTemplateKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailTemplateFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PutEmailTemplate: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                templateKey: components["schemas"]["EmailTemplateKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailTemplateInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailTemplateFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RemoveEmailTemplateOverride: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                templateKey: components["schemas"]["EmailTemplateKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetEmailTemplateInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                templateKey: components["schemas"]["EmailTemplateKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailTemplateFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PutEmailTemplateInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                templateKey: components["schemas"]["EmailTemplateKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailTemplateInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailTemplateFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RemoveEmailTemplateOverrideInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                templateKey: components["schemas"]["EmailTemplateKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetEmailTemplateInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
                templateKey: components["schemas"]["EmailTemplateKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailTemplateFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PutEmailTemplateInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                templateKey: components["schemas"]["EmailTemplateKey"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailTemplateInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailTemplateFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RemoveEmailTemplateOverrideInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                templateKey: components["schemas"]["EmailTemplateKey"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PreviewEmailTemplate: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                templateKey: components["schemas"]["EmailTemplateKey"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["EmailTemplatePreviewInput"] | null;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The rendered subject. */
                        subject: string;
                        /** @description The rendered HTML body. */
                        html: string;
                        /** @description The rendered plain-text body. */
                        text: string;
                        /** @description The variables it was rendered with. */
                        variables: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PreviewEmailTemplateInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                templateKey: components["schemas"]["EmailTemplateKey"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["EmailTemplatePreviewInput"] | null;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The rendered subject. */
                        subject: string;
                        /** @description The rendered HTML body. */
                        html: string;
                        /** @description The rendered plain-text body. */
                        text: string;
                        /** @description The variables it was rendered with. */
                        variables: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PreviewEmailTemplateInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                templateKey: components["schemas"]["EmailTemplateKey"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["EmailTemplatePreviewInput"] | null;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The rendered subject. */
                        subject: string;
                        /** @description The rendered HTML body. */
                        html: string;
                        /** @description The rendered plain-text body. */
                        text: string;
                        /** @description The variables it was rendered with. */
                        variables: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SendTestEmail: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SendTestEmailInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description The delivery's id.
                         */
                        id: string;
                        /**
                         * Format: uuid
                         * @description The tenant the mail is about; null for the application's own.
                         */
                        tenantId: string | null;
                        /** @description Which mail: one of the 12 template keys, or `test` (`POST /email/test`). */
                        templateKey: string;
                        /** @description The recipient. */
                        to: string;
                        /** @description Where it is. */
                        status: components["schemas"]["EmailDeliveryStatus"];
                        /** @description Attempts made so far (a process that died mid-attempt counts one; one the service stopped itself, giving it back, does not). */
                        attempts: number;
                        /** @description The provider's last error, without secrets; null when the last attempt succeeded or none failed. */
                        lastError: string | null;
                        /** @description The provider that last tried (at first, the one that applied when the mail was queued). */
                        providerType: components["schemas"]["EmailProviderType"] | null;
                        /** @description Why nothing left the service although `status` is `sent` (the built-in sender without `SMTP_URL`); else null. */
                        note: string | null;
                        /** @description The Message-ID header, the same on every attempt. */
                        messageId: string;
                        /** @description The rendered subject. */
                        subject: string;
                        /**
                         * Format: date-time
                         * @description When the mail was queued.
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @description When the next attempt is due (while `queued`).
                         */
                        nextAttemptAt: string;
                        /**
                         * Format: date-time
                         * @description When the provider accepted it; null until then.
                         */
                        sentAt: string | null;
                        /**
                         * @description The rendered plain-text body, where the outbox is where the mail goes (the built-in sender without `SMTP_URL`) and
                         *     for the test mail; a mail sent through a provider carries single-use links or codes its recipient alone may read,
                         *     and answers a sentence saying it is not shown.
                         */
                        text: string;
                        /** @description The rendered HTML body, under the same rule as `text`. */
                        html: string;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SendTestEmailInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SendTestEmailInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description The delivery's id.
                         */
                        id: string;
                        /**
                         * Format: uuid
                         * @description The tenant the mail is about; null for the application's own.
                         */
                        tenantId: string | null;
                        /** @description Which mail: one of the 12 template keys, or `test` (`POST /email/test`). */
                        templateKey: string;
                        /** @description The recipient. */
                        to: string;
                        /** @description Where it is. */
                        status: components["schemas"]["EmailDeliveryStatus"];
                        /** @description Attempts made so far (a process that died mid-attempt counts one; one the service stopped itself, giving it back, does not). */
                        attempts: number;
                        /** @description The provider's last error, without secrets; null when the last attempt succeeded or none failed. */
                        lastError: string | null;
                        /** @description The provider that last tried (at first, the one that applied when the mail was queued). */
                        providerType: components["schemas"]["EmailProviderType"] | null;
                        /** @description Why nothing left the service although `status` is `sent` (the built-in sender without `SMTP_URL`); else null. */
                        note: string | null;
                        /** @description The Message-ID header, the same on every attempt. */
                        messageId: string;
                        /** @description The rendered subject. */
                        subject: string;
                        /**
                         * Format: date-time
                         * @description When the mail was queued.
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @description When the next attempt is due (while `queued`).
                         */
                        nextAttemptAt: string;
                        /**
                         * Format: date-time
                         * @description When the provider accepted it; null until then.
                         */
                        sentAt: string | null;
                        /**
                         * @description The rendered plain-text body, where the outbox is where the mail goes (the built-in sender without `SMTP_URL`) and
                         *     for the test mail; a mail sent through a provider carries single-use links or codes its recipient alone may read,
                         *     and answers a sentence saying it is not shown.
                         */
                        text: string;
                        /** @description The rendered HTML body, under the same rule as `text`. */
                        html: string;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SendTestEmailInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SendTestEmailInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description The delivery's id.
                         */
                        id: string;
                        /**
                         * Format: uuid
                         * @description The tenant the mail is about; null for the application's own.
                         */
                        tenantId: string | null;
                        /** @description Which mail: one of the 12 template keys, or `test` (`POST /email/test`). */
                        templateKey: string;
                        /** @description The recipient. */
                        to: string;
                        /** @description Where it is. */
                        status: components["schemas"]["EmailDeliveryStatus"];
                        /** @description Attempts made so far (a process that died mid-attempt counts one; one the service stopped itself, giving it back, does not). */
                        attempts: number;
                        /** @description The provider's last error, without secrets; null when the last attempt succeeded or none failed. */
                        lastError: string | null;
                        /** @description The provider that last tried (at first, the one that applied when the mail was queued). */
                        providerType: components["schemas"]["EmailProviderType"] | null;
                        /** @description Why nothing left the service although `status` is `sent` (the built-in sender without `SMTP_URL`); else null. */
                        note: string | null;
                        /** @description The Message-ID header, the same on every attempt. */
                        messageId: string;
                        /** @description The rendered subject. */
                        subject: string;
                        /**
                         * Format: date-time
                         * @description When the mail was queued.
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @description When the next attempt is due (while `queued`).
                         */
                        nextAttemptAt: string;
                        /**
                         * Format: date-time
                         * @description When the provider accepted it; null until then.
                         */
                        sentAt: string | null;
                        /**
                         * @description The rendered plain-text body, where the outbox is where the mail goes (the built-in sender without `SMTP_URL`) and
                         *     for the test mail; a mail sent through a provider carries single-use links or codes its recipient alone may read,
                         *     and answers a sentence saying it is not shown.
                         */
                        text: string;
                        /** @description The rendered HTML body, under the same rule as `text`. */
                        html: string;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListEmailDeliveries: {
        parameters: {
            query?: {
                status?: components["schemas"]["EmailDeliveryStatus"];
                templateKey?: string;
                to?: string;
                /** @description `oldest` (the default) or `newest` first. */
                order?: components["schemas"]["EmailDeliveryOrder"];
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The deliveries of this page. */
                        data: components["schemas"]["EmailDeliverySummaryFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListEmailDeliveriesInApplication: {
        parameters: {
            query?: {
                status?: components["schemas"]["EmailDeliveryStatus"];
                templateKey?: string;
                to?: string;
                /** @description `oldest` (the default) or `newest` first. */
                order?: components["schemas"]["EmailDeliveryOrder"];
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The deliveries of this page. */
                        data: components["schemas"]["EmailDeliverySummaryFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListEmailDeliveriesInTenant: {
        parameters: {
            query?: {
                status?: components["schemas"]["EmailDeliveryStatus"];
                templateKey?: string;
                to?: string;
                /** @description `oldest` (the default) or `newest` first. */
                order?: components["schemas"]["EmailDeliveryOrder"];
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The deliveries of this page. */
                        data: components["schemas"]["EmailDeliverySummaryFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetEmailDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description The delivery's id.
                         */
                        id: string;
                        /**
                         * Format: uuid
                         * @description The tenant the mail is about; null for the application's own.
                         */
                        tenantId: string | null;
                        /** @description Which mail: one of the 12 template keys, or `test` (`POST /email/test`). */
                        templateKey: string;
                        /** @description The recipient. */
                        to: string;
                        /** @description Where it is. */
                        status: components["schemas"]["EmailDeliveryStatus"];
                        /** @description Attempts made so far (a process that died mid-attempt counts one; one the service stopped itself, giving it back, does not). */
                        attempts: number;
                        /** @description The provider's last error, without secrets; null when the last attempt succeeded or none failed. */
                        lastError: string | null;
                        /** @description The provider that last tried (at first, the one that applied when the mail was queued). */
                        providerType: components["schemas"]["EmailProviderType"] | null;
                        /** @description Why nothing left the service although `status` is `sent` (the built-in sender without `SMTP_URL`); else null. */
                        note: string | null;
                        /** @description The Message-ID header, the same on every attempt. */
                        messageId: string;
                        /** @description The rendered subject. */
                        subject: string;
                        /**
                         * Format: date-time
                         * @description When the mail was queued.
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @description When the next attempt is due (while `queued`).
                         */
                        nextAttemptAt: string;
                        /**
                         * Format: date-time
                         * @description When the provider accepted it; null until then.
                         */
                        sentAt: string | null;
                        /**
                         * @description The rendered plain-text body, where the outbox is where the mail goes (the built-in sender without `SMTP_URL`) and
                         *     for the test mail; a mail sent through a provider carries single-use links or codes its recipient alone may read,
                         *     and answers a sentence saying it is not shown.
                         */
                        text: string;
                        /** @description The rendered HTML body, under the same rule as `text`. */
                        html: string;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetEmailDeliveryInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description The delivery's id.
                         */
                        id: string;
                        /**
                         * Format: uuid
                         * @description The tenant the mail is about; null for the application's own.
                         */
                        tenantId: string | null;
                        /** @description Which mail: one of the 12 template keys, or `test` (`POST /email/test`). */
                        templateKey: string;
                        /** @description The recipient. */
                        to: string;
                        /** @description Where it is. */
                        status: components["schemas"]["EmailDeliveryStatus"];
                        /** @description Attempts made so far (a process that died mid-attempt counts one; one the service stopped itself, giving it back, does not). */
                        attempts: number;
                        /** @description The provider's last error, without secrets; null when the last attempt succeeded or none failed. */
                        lastError: string | null;
                        /** @description The provider that last tried (at first, the one that applied when the mail was queued). */
                        providerType: components["schemas"]["EmailProviderType"] | null;
                        /** @description Why nothing left the service although `status` is `sent` (the built-in sender without `SMTP_URL`); else null. */
                        note: string | null;
                        /** @description The Message-ID header, the same on every attempt. */
                        messageId: string;
                        /** @description The rendered subject. */
                        subject: string;
                        /**
                         * Format: date-time
                         * @description When the mail was queued.
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @description When the next attempt is due (while `queued`).
                         */
                        nextAttemptAt: string;
                        /**
                         * Format: date-time
                         * @description When the provider accepted it; null until then.
                         */
                        sentAt: string | null;
                        /**
                         * @description The rendered plain-text body, where the outbox is where the mail goes (the built-in sender without `SMTP_URL`) and
                         *     for the test mail; a mail sent through a provider carries single-use links or codes its recipient alone may read,
                         *     and answers a sentence saying it is not shown.
                         */
                        text: string;
                        /** @description The rendered HTML body, under the same rule as `text`. */
                        html: string;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetEmailDeliveryInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description The delivery's id.
                         */
                        id: string;
                        /**
                         * Format: uuid
                         * @description The tenant the mail is about; null for the application's own.
                         */
                        tenantId: string | null;
                        /** @description Which mail: one of the 12 template keys, or `test` (`POST /email/test`). */
                        templateKey: string;
                        /** @description The recipient. */
                        to: string;
                        /** @description Where it is. */
                        status: components["schemas"]["EmailDeliveryStatus"];
                        /** @description Attempts made so far (a process that died mid-attempt counts one; one the service stopped itself, giving it back, does not). */
                        attempts: number;
                        /** @description The provider's last error, without secrets; null when the last attempt succeeded or none failed. */
                        lastError: string | null;
                        /** @description The provider that last tried (at first, the one that applied when the mail was queued). */
                        providerType: components["schemas"]["EmailProviderType"] | null;
                        /** @description Why nothing left the service although `status` is `sent` (the built-in sender without `SMTP_URL`); else null. */
                        note: string | null;
                        /** @description The Message-ID header, the same on every attempt. */
                        messageId: string;
                        /** @description The rendered subject. */
                        subject: string;
                        /**
                         * Format: date-time
                         * @description When the mail was queued.
                         */
                        createdAt: string;
                        /**
                         * Format: date-time
                         * @description When the next attempt is due (while `queued`).
                         */
                        nextAttemptAt: string;
                        /**
                         * Format: date-time
                         * @description When the provider accepted it; null until then.
                         */
                        sentAt: string | null;
                        /**
                         * @description The rendered plain-text body, where the outbox is where the mail goes (the built-in sender without `SMTP_URL`) and
                         *     for the test mail; a mail sent through a provider carries single-use links or codes its recipient alone may read,
                         *     and answers a sentence saying it is not shown.
                         */
                        text: string;
                        /** @description The rendered HTML body, under the same rule as `text`. */
                        html: string;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetEmailSenderDomain: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailSenderDomainFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetEmailSenderDomainInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailSenderDomainFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetEmailSenderDomainInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailSenderDomainFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    VerifyEmailSenderDomain: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailSenderDomainFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    VerifyEmailSenderDomainInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailSenderDomainFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    VerifyEmailSenderDomainInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EmailSenderDomainFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListAuthProviders: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The providers of this page. */
                        data: components["schemas"]["AuthProviderFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateAuthProvider: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAuthProviderInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthProviderFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListAuthProvidersInApplication: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The providers of this page. */
                        data: components["schemas"]["AuthProviderFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateAuthProviderInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAuthProviderInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthProviderFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListAuthProvidersInTenant: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The providers of this page. */
                        data: components["schemas"]["AuthProviderFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateAuthProviderInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAuthProviderInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthProviderFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetAuthProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                providerId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthProviderFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteAuthProvider: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                providerId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UpdateAuthProvider: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                providerId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAuthProviderInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthProviderFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetAuthProviderInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                providerId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthProviderFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteAuthProviderInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                providerId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UpdateAuthProviderInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                providerId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAuthProviderInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthProviderFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetAuthProviderInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
                providerId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthProviderFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteAuthProviderInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                providerId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UpdateAuthProviderInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                providerId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAuthProviderInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuthProviderFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RotateSamlSpKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                providerId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RotateSamlSpKeyInput"] | null;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description The saml provider the key belongs to.
                         */
                        providerId: string;
                        /**
                         * @description The current certificate (PEM X.509, self-signed): IdPs encrypt assertions to it, and with `signRequests` it
                         *     verifies the AuthnRequests, signed by this key from now on.
                         */
                        certificate: string;
                        /**
                         * Format: date-time
                         * @description While the grace period runs: when the previous key stops decrypting assertions and leaves the metadata. Null when
                         *     none is kept.
                         */
                        previousCertificateExpiresAt: string | null;
                        /** @description The SP metadata document: during the grace period it publishes both certificates, the current one first. */
                        metadataUrl: string;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RotateSamlSpKeyInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                providerId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RotateSamlSpKeyInput"] | null;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description The saml provider the key belongs to.
                         */
                        providerId: string;
                        /**
                         * @description The current certificate (PEM X.509, self-signed): IdPs encrypt assertions to it, and with `signRequests` it
                         *     verifies the AuthnRequests, signed by this key from now on.
                         */
                        certificate: string;
                        /**
                         * Format: date-time
                         * @description While the grace period runs: when the previous key stops decrypting assertions and leaves the metadata. Null when
                         *     none is kept.
                         */
                        previousCertificateExpiresAt: string | null;
                        /** @description The SP metadata document: during the grace period it publishes both certificates, the current one first. */
                        metadataUrl: string;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RotateSamlSpKeyInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                providerId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RotateSamlSpKeyInput"] | null;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /**
                         * Format: uuid
                         * @description The saml provider the key belongs to.
                         */
                        providerId: string;
                        /**
                         * @description The current certificate (PEM X.509, self-signed): IdPs encrypt assertions to it, and with `signRequests` it
                         *     verifies the AuthnRequests, signed by this key from now on.
                         */
                        certificate: string;
                        /**
                         * Format: date-time
                         * @description While the grace period runs: when the previous key stops decrypting assertions and leaves the metadata. Null when
                         *     none is kept.
                         */
                        previousCertificateExpiresAt: string | null;
                        /** @description The SP metadata document: during the grace period it publishes both certificates, the current one first. */
                        metadataUrl: string;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListOAuthClients: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The clients of this page. */
                        data: components["schemas"]["OAuthClientFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateOAuthClient: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOAuthClientInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientWithSecretFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListOAuthClientsInApplication: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The clients of this page. */
                        data: components["schemas"]["OAuthClientFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateOAuthClientInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOAuthClientInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientWithSecretFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListOAuthClientsInTenant: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The clients of this page. */
                        data: components["schemas"]["OAuthClientFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateOAuthClientInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateOAuthClientInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientWithSecretFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetOAuthClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteOAuthClient: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UpdateOAuthClient: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                clientId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOAuthClientInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetOAuthClientInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteOAuthClientInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UpdateOAuthClientInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                clientId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOAuthClientInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetOAuthClientInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteOAuthClientInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UpdateOAuthClientInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                clientId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateOAuthClientInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RotateOAuthClientSecret: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RotateOAuthClientSecretInput"] | null;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientWithSecretFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RotateOAuthClientSecretInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RotateOAuthClientSecretInput"] | null;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientWithSecretFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RotateOAuthClientSecretInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                clientId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RotateOAuthClientSecretInput"] | null;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthClientWithSecretFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListM2MCredentials: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The credentials of this page. */
                        data: components["schemas"]["M2MCredentialFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateM2MCredential: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateM2MCredentialInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["M2MCredentialWithSecretFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListM2MCredentialsInApplication: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The credentials of this page. */
                        data: components["schemas"]["M2MCredentialFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateM2MCredentialInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateM2MCredentialInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["M2MCredentialWithSecretFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListM2MCredentialsInTenant: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The credentials of this page. */
                        data: components["schemas"]["M2MCredentialFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateM2MCredentialInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateM2MCredentialInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["M2MCredentialWithSecretFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetM2MCredential: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                credentialId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["M2MCredentialFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RevokeM2MCredential: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                credentialId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetM2MCredentialInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                credentialId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["M2MCredentialFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RevokeM2MCredentialInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                credentialId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetM2MCredentialInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
                credentialId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["M2MCredentialFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RevokeM2MCredentialInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                credentialId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RotateM2MCredential: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                credentialId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RotateM2MCredentialInput"] | null;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["M2MCredentialWithSecretFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RotateM2MCredentialInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                credentialId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RotateM2MCredentialInput"] | null;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["M2MCredentialWithSecretFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RotateM2MCredentialInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                credentialId: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["RotateM2MCredentialInput"] | null;
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["M2MCredentialWithSecretFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PutM2MCredentialJwks: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                credentialId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["JwksInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["M2MCredentialFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PutM2MCredentialJwksInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                credentialId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["JwksInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["M2MCredentialFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    PutM2MCredentialJwksInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                credentialId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["JwksInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["M2MCredentialFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListAuditLogs: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only what this actor did (a user, credential or key id). */
                actor?: string;
                /** @description Only this action (`user.created`), or every action of a resource (`user.*`). */
                action?: string;
                /** @description Only records about this target id. */
                target?: string;
                /** @description From this time on (inclusive), 1970 or later (the epoch of the records' UUIDv7 ids). */
                from?: string;
                /** @description Before this time, 1970 or later. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The records. */
                        data: components["schemas"]["AuditRecordFields"][];
                        /** @description The cursor of the next page; null on the last. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListAuditLogsInApplication: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only what this actor did (a user, credential or key id). */
                actor?: string;
                /** @description Only this action (`user.created`), or every action of a resource (`user.*`). */
                action?: string;
                /** @description Only records about this target id. */
                target?: string;
                /** @description From this time on (inclusive), 1970 or later (the epoch of the records' UUIDv7 ids). */
                from?: string;
                /** @description Before this time, 1970 or later. */
                to?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The records. */
                        data: components["schemas"]["AuditRecordFields"][];
                        /** @description The cursor of the next page; null on the last. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListAuditLogsInTenant: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only what this actor did (a user, credential or key id). */
                actor?: string;
                /** @description Only this action (`user.created`), or every action of a resource (`user.*`). */
                action?: string;
                /** @description Only records about this target id. */
                target?: string;
                /** @description From this time on (inclusive), 1970 or later (the epoch of the records' UUIDv7 ids). */
                from?: string;
                /** @description Before this time, 1970 or later. */
                to?: string;
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The records. */
                        data: components["schemas"]["AuditRecordFields"][];
                        /** @description The cursor of the next page; null on the last. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetAuditLog: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                recordId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditRecordFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetAuditLogInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                recordId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditRecordFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetAuditLogInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
                recordId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditRecordFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetActiveUsers: {
        parameters: {
            query?: {
                from?: string;
                to?: string;
                interval?: components["schemas"]["AnalyticsInterval"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description One point per period of the range, oldest first; periods without activity count 0. */
                        data: {
                            /** @description The period's first day (YYYY-MM-DD). */
                            period: string;
                            /** @description Distinct users who signed in or refreshed a token in the period. */
                            count: number;
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetActiveUsersInApplication: {
        parameters: {
            query?: {
                from?: string;
                to?: string;
                interval?: components["schemas"]["AnalyticsInterval"];
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description One point per period of the range, oldest first; periods without activity count 0. */
                        data: {
                            /** @description The period's first day (YYYY-MM-DD). */
                            period: string;
                            /** @description Distinct users who signed in or refreshed a token in the period. */
                            count: number;
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetActiveUsersInTenant: {
        parameters: {
            query?: {
                from?: string;
                to?: string;
                interval?: components["schemas"]["AnalyticsInterval"];
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description One point per period of the range, oldest first; periods without activity count 0. */
                        data: {
                            /** @description The period's first day (YYYY-MM-DD). */
                            period: string;
                            /** @description Distinct users who signed in or refreshed a token in the period. */
                            count: number;
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetSignIns: {
        parameters: {
            query?: {
                from?: string;
                to?: string;
                interval?: components["schemas"]["AnalyticsInterval"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description One point per period of the range, oldest first. */
                        data: {
                            /** @description The period's first day (YYYY-MM-DD). */
                            period: string;
                            /** @description Sign-ins that proved the user, counted once when complete (the MFA step passed, or none asked). */
                            succeeded: number;
                            /** @description Sign-ins refused (wrong or unknown credentials, locked or suspended users, locked-out addresses). */
                            failed: number;
                            /** @description Every attempt of the period by method (`password`, …); a first factor the MFA step follows counts as that step's (`totp`, …). */
                            byMethod: {
                                [key: string]: unknown;
                            };
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetSignInsInApplication: {
        parameters: {
            query?: {
                from?: string;
                to?: string;
                interval?: components["schemas"]["AnalyticsInterval"];
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description One point per period of the range, oldest first. */
                        data: {
                            /** @description The period's first day (YYYY-MM-DD). */
                            period: string;
                            /** @description Sign-ins that proved the user, counted once when complete (the MFA step passed, or none asked). */
                            succeeded: number;
                            /** @description Sign-ins refused (wrong or unknown credentials, locked or suspended users, locked-out addresses). */
                            failed: number;
                            /** @description Every attempt of the period by method (`password`, …); a first factor the MFA step follows counts as that step's (`totp`, …). */
                            byMethod: {
                                [key: string]: unknown;
                            };
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetSignInsInTenant: {
        parameters: {
            query?: {
                from?: string;
                to?: string;
                interval?: components["schemas"]["AnalyticsInterval"];
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description One point per period of the range, oldest first. */
                        data: {
                            /** @description The period's first day (YYYY-MM-DD). */
                            period: string;
                            /** @description Sign-ins that proved the user, counted once when complete (the MFA step passed, or none asked). */
                            succeeded: number;
                            /** @description Sign-ins refused (wrong or unknown credentials, locked or suspended users, locked-out addresses). */
                            failed: number;
                            /** @description Every attempt of the period by method (`password`, …); a first factor the MFA step follows counts as that step's (`totp`, …). */
                            byMethod: {
                                [key: string]: unknown;
                            };
                        }[];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetMfaAdoption: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Users now (of the tenant, on a tenant path). */
                        users: number;
                        /** @description Users with at least one MFA factor. */
                        usersWithMfa: number;
                        /** @description usersWithMfa / users (0 without users). */
                        ratio: number;
                        /** @description Users holding each factor (`totp`, …). */
                        byFactor: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetMfaAdoptionInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Users now (of the tenant, on a tenant path). */
                        users: number;
                        /** @description Users with at least one MFA factor. */
                        usersWithMfa: number;
                        /** @description usersWithMfa / users (0 without users). */
                        ratio: number;
                        /** @description Users holding each factor (`totp`, …). */
                        byFactor: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetMfaAdoptionInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Users now (of the tenant, on a tenant path). */
                        users: number;
                        /** @description Users with at least one MFA factor. */
                        usersWithMfa: number;
                        /** @description usersWithMfa / users (0 without users). */
                        ratio: number;
                        /** @description Users holding each factor (`totp`, …). */
                        byFactor: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListApiResources: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The resources of this page. */
                        data: components["schemas"]["ApiResourceFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateApiResource: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiResourceInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResourceFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListApiResourcesInApplication: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The resources of this page. */
                        data: components["schemas"]["ApiResourceFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateApiResourceInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiResourceInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResourceFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListApiResourcesInTenant: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The resources of this page. */
                        data: components["schemas"]["ApiResourceFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateApiResourceInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiResourceInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResourceFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetApiResource: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                resourceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResourceFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteApiResource: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                resourceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UpdateApiResource: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                resourceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateApiResourceInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResourceFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetApiResourceInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                resourceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResourceFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteApiResourceInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                resourceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UpdateApiResourceInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                resourceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateApiResourceInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResourceFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetApiResourceInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
                resourceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResourceFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteApiResourceInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                resourceId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    UpdateApiResourceInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                resourceId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateApiResourceInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiResourceFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListInvitations: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
                /** @description Only invitations of this status. */
                status?: components["schemas"]["InvitationStatus"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The invitations of this page. */
                        data: components["schemas"]["InvitationFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SendInvitation: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SendInvitationInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListInvitationsInApplication: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
                /** @description Only invitations of this status. */
                status?: components["schemas"]["InvitationStatus"];
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The invitations of this page. */
                        data: components["schemas"]["InvitationFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SendInvitationInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SendInvitationInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListInvitationsInTenant: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
                /** @description Only the items of these ids (1 to 100); ids not found in the scope are left out. */
                ids?: string[];
                /** @description Only invitations of this status. */
                status?: components["schemas"]["InvitationStatus"];
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The invitations of this page. */
                        data: components["schemas"]["InvitationFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    SendInvitationInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SendInvitationInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RevokeInvitation: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetInvitationInApplication: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RevokeInvitationInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    GetInvitationInTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                appId: string;
                tenantId: string;
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    RevokeInvitationInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ResendInvitation: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ResendInvitationInApplication: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ResendInvitationInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InvitationFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListDomains: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The domains of this page. */
                        data: components["schemas"]["DomainFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateDomain: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDomainInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteDomain: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                domainId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    VerifyDomain: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                domainId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Whether the domain is verified (now or before). */
                        verified: boolean;
                        /** @description Why it is not, e.g. no TXT record found; null when verified. */
                        reason: string | null;
                        /** @description The domain, as it stands after the check. */
                        domain: components["schemas"]["DomainFields"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    ListDomainsInTenant: {
        parameters: {
            query?: {
                /** @description Records per page. */
                pageSize?: number;
                /** @description The `next` of the previous page, verbatim. Cursors are opaque and tamper-evident. */
                cursor?: string;
            };
            header?: never;
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The domains of this page. */
                        data: components["schemas"]["DomainFields"][];
                        /** @description Cursor of the next page; null at the end. */
                        next: string | null;
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    CreateDomainInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateDomainInput"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DomainFields"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    DeleteDomainInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                domainId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No Content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    VerifyDomainInTenant: {
        parameters: {
            query?: never;
            header?: {
                /** @description A UUID. A repeat within 24 h from the same caller returns the first response; the same key on another request, or from a caller that now holds fewer permissions, is 409 `idempotency_conflict`. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                appId: string;
                tenantId: string;
                domainId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Whether the domain is verified (now or before). */
                        verified: boolean;
                        /** @description Why it is not, e.g. no TXT record found; null when verified. */
                        reason: string | null;
                        /** @description The domain, as it stands after the check. */
                        domain: components["schemas"]["DomainFields"];
                    };
                };
            };
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["ValidationError"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["RequestHeaderFieldsTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
