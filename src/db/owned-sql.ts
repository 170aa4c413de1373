/** Raw SQL on one application's rows: `@owner` stands for `application_id = ?` and `@owner(alias)` for
 *  `alias.application_id = ?`, bound to the owner given where the statement runs, so no condition can forget it or bind
 *  another id; a statement without the marker is refused before it is sent. */
const OWNER = /@owner(?:\((\w+)\))?/g;
/** A binding as knex reads a statement: `??` (an identifier) or `?`; `\?` is a literal question mark. */
const BINDING = /\\\?|\?\??/g;

export interface OwnedStatement {
  readonly sql: string;
  readonly params: unknown[];
}

/** `sql` with each `@owner` spelled out and bound to `applicationId`, beside the statement's other `params` in order. */
export function ownedSql(applicationId: string, sql: string, params: readonly unknown[]): OwnedStatement {
  const out: unknown[] = [];
  let given = 0;
  let from = 0;
  let owners = 0;
  let text = '';
  for (const match of sql.matchAll(OWNER)) {
    const before = sql.slice(from, match.index);
    const bindings = [...before.matchAll(BINDING)].filter(([binding]) => binding !== '\\?').length;
    out.push(...params.slice(given, given + bindings), applicationId);
    given += bindings;
    text += `${before}${match[1] === undefined ? '' : `${match[1]}.`}application_id = ?`;
    from = match.index + match[0].length;
    owners += 1;
  }
  if (owners === 0) throw new Error(`an owned statement names no @owner: ${sql.slice(0, 120)}`);
  out.push(...params.slice(given));
  return { sql: text + sql.slice(from), params: out };
}

export interface SqlRunner {
  execute(sql: string, params: unknown[]): Promise<unknown>;
}

export function executeOwned<T>(runner: SqlRunner, applicationId: string, sql: string, params: readonly unknown[] = []): Promise<T> {
  const statement = ownedSql(applicationId, sql, params);
  // MikroORM types its answer as any row shape: the caller names the rows its statement returns, as with execute<T>.
  return runner.execute(statement.sql, statement.params) as Promise<T>;
}
