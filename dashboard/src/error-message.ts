/** The sentence to show for anything thrown: errors carry their own, built for the page. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
