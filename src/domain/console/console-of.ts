/** The console of `application`'s organization, whose users are its operators; none for the console itself (its users
 *  act there as users). `application` is SQL: a parameter marker or a column. */
export const consoleOfSql = (application: string): string =>
  `select c.id from application as c join application as m on m.organization_id = c.organization_id where m.id = ${application} and c.console and not m.console`;
