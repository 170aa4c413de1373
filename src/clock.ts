/** Analytics days and audit retention's cutoff: tests set the time rather than wait. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
