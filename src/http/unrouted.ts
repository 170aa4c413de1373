/** The one version served (spec, Versioning); a breaking change ships beside it under the next. */
export const API_ROOT = '/api/v1';

/**
 * The 404's message for a path no route takes: a client aiming at another API version, or at none, is told which one
 * is served, since a bare "no route" reads as a typo in the resource.
 */
export function unroutedMessage(method: string, url: string): string {
  const path = url.split('?')[0] ?? '';
  const segments = path.split('/');
  if (segments[1] !== 'api' || segments[2] === API_ROOT.slice('/api/'.length)) return `No route ${method} ${path}`;
  const version = segments[2] ?? '';
  if (/^v\d+$/.test(version)) return `API version ${version} is not served; this service serves ${API_ROOT}`;
  return `No route ${method} ${path}; management paths are rooted at ${API_ROOT}`;
}
