/**
 * The time of the events whose time tests set rather than wait for: the analytics rollups' days and the audit
 * retention's cutoff. The system's clock outside tests.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
