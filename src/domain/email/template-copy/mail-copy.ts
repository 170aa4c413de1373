import type { TemplateKey } from '../template-defaults.ts';

/** One default e-mail's words (Liquid): the frame around them is template-defaults.ts's. */
export interface MailText {
  readonly subject: string;
  readonly heading: string;
  /** Paragraphs after the greeting; HTML allowed (the plain-text part drops the tags). */
  readonly paragraphs: readonly string[];
  /** The label of the button to `{{ link }}`; absent: the mail has no link. */
  readonly button?: string;
}

/** The default e-mails in one language. */
export interface MailCopy {
  /** The first line of every mail (Liquid). */
  readonly greeting: string;
  readonly templates: Readonly<Record<TemplateKey, MailText>>;
}
