/** A LIKE pattern matching the values that start with `text`, its `%`, `_` and `\` taken literally. */
export const likePrefix = (text: string): string => `${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
