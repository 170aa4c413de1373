import type { MailCopy } from './mail-copy.ts';

/** Also what the API shows as each template's default. */
export const EN: MailCopy = {
  greeting: 'Hi {{ user.name | default: "there" }},',
  words: {
    factors: { totp: 'Authenticator app', email_otp: 'Email code', webauthn: 'Passkey or security key' },
    unknownDevice: 'an unknown browser',
    device: '{browser} on {system}',
    someBrowser: 'a browser',
    someSystem: 'an unknown system',
    unknownLocation: 'an unknown location',
  },
  templates: {
    verify_email: {
      subject: 'Verify your e-mail address for {{ application.name }}',
      heading: 'Verify your e-mail address',
      paragraphs: ['Please confirm that {{ user.email }} is your e-mail address. The link expires in {{ expiresIn }}.'],
      button: 'Verify e-mail address',
    },
    // Also the notice to an account's owner when someone signs up with its address (`existingAccount`).
    welcome: {
      subject: '{% if existingAccount %}You already have a {{ application.name }} account{% else %}Welcome to {{ application.name }}{% endif %}',
      heading: 'Welcome to {{ application.name }}',
      paragraphs: [
        '{% if existingAccount %}Someone tried to create an account with {{ user.email }}, which already has one. ' +
          'If it was you, sign in; if you forgot your password, reset it from the sign-in page. If not, you can ignore this e-mail.' +
          '{% else %}Your account {{ user.email }} is ready. You can sign in at any time.{% endif %}',
      ],
      button: 'Sign in',
    },
    magic_link: {
      subject: 'Your sign-in link for {{ application.name }}',
      heading: 'Sign in to {{ application.name }}',
      paragraphs: ['Use the link below to sign in. It works once and expires in {{ expiresIn }}.', 'If you did not ask for it, you can ignore this e-mail.'],
      button: 'Sign in',
    },
    password_reset: {
      subject: 'Reset your {{ application.name }} password',
      heading: 'Reset your password',
      paragraphs: [
        'Someone asked to reset the password of {{ user.email }}. The link expires in {{ expiresIn }}.',
        'If it was not you, ignore this e-mail: your password stays as it is.',
      ],
      button: 'Choose a new password',
    },
    password_changed: {
      subject: 'Your {{ application.name }} password was changed',
      heading: 'Your password was changed',
      paragraphs: ['The password of {{ user.email }} was changed on {{ changedAt }}.', 'If you did not do this, reset your password now and contact support.'],
      button: 'Reset password',
    },
    email_otp: {
      subject: '{{ code }} is your {{ application.name }} code',
      heading: 'Your one-time code',
      paragraphs: ['{% if addsPasskey %}Enter this code to accept the invitation and add a passkey to your account{% else %}Enter this code to continue{% endif %}: <strong style="font-size:22px;letter-spacing:4px">{{ code }}</strong>', 'It expires in {{ expiresIn }}. Never share it with anyone.{% if addsPasskey %} Whoever has it can add their own passkey to your account: if you did not ask for it, ignore this e-mail.{% endif %}'],
    },
    // Also the notice that a copied passkey was removed (`clonedPasskey`).
    mfa_enrolled: {
      subject: '{% if clonedPasskey %}A passkey was removed from your {{ application.name }} account{% else %}A sign-in method was added to your {{ application.name }} account{% endif %}',
      heading: '{% if clonedPasskey %}A copy of your passkey was used{% else %}New second factor added{% endif %}',
      paragraphs: [
        '{% if clonedPasskey %}Your passkey “{{ clonedPasskey.name }}” was just used with a signature that shows it may have been copied. We refused the sign-in and removed the passkey from {{ user.email }}.{% else %}{{ factor }} was added as a second factor to {{ user.email }}.{% endif %}',
        '{% if clonedPasskey %}If you still hold the key, sign in another way and add it again. If you did not try to sign in, secure your account now.{% else %}If this was not you, review your security settings now.{% endif %}',
      ],
      button: '{% if clonedPasskey %}Secure my account{% else %}Review security settings{% endif %}',
    },
    invitation: {
      subject: '{% if inviter.name %}{{ inviter.name }} invited you to {{ tenant.name | default: application.name }}{% else %}You are invited to {{ tenant.name | default: application.name }}{% endif %}',
      heading: 'You are invited',
      paragraphs: [
        '{% if inviter.name %}{{ inviter.name }} invited you{% else %}You are invited{% endif %} to join {{ tenant.name | default: application.name }} on {{ application.name }}.',
        'The invitation expires in {{ expiresInDays }} days.',
      ],
      button: 'Accept invitation',
    },
    new_sign_in: {
      subject: 'New sign-in to your {{ application.name }} account',
      heading: 'New sign-in',
      paragraphs: [
        'We noticed a new sign-in to {{ user.email }} on {{ signIn.time }} from {{ signIn.device }} in {{ signIn.location }} (IP {{ signIn.ip }}).',
        'If this was you, there is nothing to do. If not, secure your account now.',
      ],
      button: 'Secure my account',
    },
    account_locked: {
      subject: 'Your {{ application.name }} account is locked',
      heading: 'Your account is locked',
      paragraphs: ['After too many failed sign-in attempts we locked {{ user.email }} to protect it.', 'Reset your password to unlock it.'],
      button: 'Reset password',
    },
    // Also the notice to the address an account left (`addressChanged`), with a link giving it back or none.
    email_change: {
      subject: '{% if addressChanged %}The e-mail address of your {{ application.name }} account was changed{% else %}Confirm your new e-mail address for {{ application.name }}{% endif %}',
      heading: '{% if addressChanged %}Your e-mail address was changed{% else %}Confirm your new e-mail address{% endif %}',
      paragraphs: [
        '{% if addressChanged %}The sign-in address of your account was changed from {{ user.email }} to {{ newEmail }}: mail about your account goes there now.{% else %}Confirm that {{ newEmail }} should replace {{ user.email }} as your sign-in address. The link expires in {{ expiresIn }}.{% endif %}',
        '{% if addressChanged %}{% if link %}If you made this change, there is nothing to do. If not, open the link below within {{ expiresIn }}: with the password your account had, it makes this address your sign-in address again, sets a new password, signs out every session and removes the sign-in methods added since.{% else %}If you did not expect this change, contact support.{% endif %}{% else %}If you did not ask for this change, ignore this e-mail.{% endif %}',
      ],
      button: '{% if addressChanged %}This was not me{% else %}Confirm new address{% endif %}',
    },
    account_deleted: {
      subject: 'Your {{ application.name }} account was deleted',
      heading: 'Your account was deleted',
      paragraphs: ['The account {{ user.email }} and its data were deleted.', 'If you did not ask for this, contact support.'],
    },
  },
};
