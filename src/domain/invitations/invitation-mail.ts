import type { EntityManager } from '@mikro-orm/postgresql';
import type { EmailDelivery } from '../../db/entities/index.ts';
import { enqueueMail, type MailSender } from '../email/outbox.ts';

export interface InvitationMail {
  readonly to: string;
  readonly tenantId: string;
  readonly link: string;
  readonly inviter: { readonly name: string | null; readonly email: string | null };
  readonly expiresInDays: number;
  /** The invitee's account, when the address already has one in the pool. */
  readonly user?: { readonly name: string | null; readonly email: string };
}

/** Queues the `invitation` template in the caller's transaction; the caller wakes the outbox once it has committed. */
export async function enqueueInvitationMail(em: EntityManager, sender: MailSender, mail: InvitationMail): Promise<EmailDelivery> {
  const { to, tenantId, link, inviter, expiresInDays, user } = mail;
  return enqueueMail(em, sender, { templateKey: 'invitation', to, tenantId, variables: { link, inviter, expiresInDays, ...(user === undefined ? {} : { user }) } });
}
