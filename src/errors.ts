/** A closed set; only the transport serializers (format-error.ts, rest/adapter.ts, json-errors.ts) turn them into bytes. */
export const STATUS_BY_CODE = {
  unauthenticated: 401,
  forbidden: 403,
  /** Nothing but the reactivation is served. */
  organization_deactivated: 403,
  not_found: 404,
  method_not_allowed: 405,
  already_exists: 409,
  tenant_auth_data_remains: 409,
  tenant_customization_disabled: 409,
  idempotency_conflict: 409,
  /** The console's operators could no longer sign in. */
  last_sign_in_provider: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_error: 422,
  rate_limited: 429,
  internal_error: 500,
  /** No database connection came free in time, or a lock is taken where the request may not wait (src/db/advisory-lock.ts). */
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof STATUS_BY_CODE;

export interface ErrorDetail {
  readonly [key: string]: string | number | boolean | null;
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  field?: string;
  details?: ErrorDetail[];
}

export class GatehouseError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  readonly details: ErrorDetail[] | undefined;
  /** For a refusal that a later retry may not meet. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, options: { field?: string; details?: ErrorDetail[]; retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = 'GatehouseError';
    this.code = code;
    this.field = options.field;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get status(): number {
    return STATUS_BY_CODE[this.code];
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(STATUS_BY_CODE, value);
}

export function invalid(field: string, message: string): GatehouseError {
  return new GatehouseError('validation_error', message, { field });
}

export function notFound(what: string, field?: string): GatehouseError {
  return new GatehouseError('not_found', `${what} not found`, field === undefined ? {} : { field });
}

/** Anything that is not a GatehouseError is exposed only as this fixed message. */
export const INTERNAL_ERROR: ErrorBody = { code: 'internal_error', message: 'Internal server error' };

export function toErrorBody(error: GatehouseError): ErrorBody {
  const body: ErrorBody = { code: error.code, message: error.message };
  if (error.field !== undefined) body.field = error.field;
  if (error.details !== undefined) body.details = error.details;
  return body;
}

export interface GraphQLErrorBody extends ErrorBody {
  retryAfter?: number;
}

export function toGraphQLErrorBody(error: GatehouseError): GraphQLErrorBody {
  const body: GraphQLErrorBody = toErrorBody(error);
  if (error.retryAfterSeconds !== undefined) body.retryAfter = error.retryAfterSeconds;
  return body;
}
