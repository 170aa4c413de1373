import type { TemplateKey } from '../template-defaults.ts';

/** Liquid; the frame around them is template-defaults.ts's. */
export interface MailText {
  readonly subject: string;
  readonly heading: string;
  /** HTML allowed (the plain-text part drops the tags). */
  readonly paragraphs: readonly string[];
  /** Absent: the mail has no link. */
  readonly button?: string;
}

export interface MailCopy {
  readonly greeting: string;
  readonly templates: Readonly<Record<TemplateKey, MailText>>;
}
