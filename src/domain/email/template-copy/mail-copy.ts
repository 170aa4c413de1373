import type { FactorKind } from '../../mfa/factors.ts';
import type { TemplateKey } from '../template-defaults.ts';

/** Liquid; the frame around them is template-defaults.ts's. */
export interface MailText {
  readonly subject: string;
  readonly heading: string;
  /** HTML allowed (the plain-text part drops the tags). */
  readonly paragraphs: readonly string[];
  readonly button?: string;
}

export interface MailWords {
  /** `mfa_enrolled`'s `factor`, as the user knows it. */
  readonly factors: Readonly<Record<FactorKind, string>>;
  /** `new_sign_in`'s `signIn.device` for a browser that sent no User-Agent, or one naming no browser or system we know. */
  readonly unknownDevice: string;
  /** `new_sign_in`'s `signIn.device` otherwise: `{browser}` and `{system}` as sign-in/device.ts reads them, or the two below. */
  readonly device: string;
  readonly someBrowser: string;
  readonly someSystem: string;
  /** `new_sign_in`'s `signIn.location`: no address is located here. */
  readonly unknownLocation: string;
}

export interface MailCopy {
  readonly greeting: string;
  readonly words: MailWords;
  readonly templates: Readonly<Record<TemplateKey, MailText>>;
}
