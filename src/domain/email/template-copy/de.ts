import type { MailCopy } from './mail-copy.ts';

export const DE: MailCopy = {
  greeting: 'Hallo{% if user.name %} {{ user.name }}{% endif %},',
  words: {
    factors: { totp: 'Authenticator-App', email_otp: 'E-Mail-Code', webauthn: 'Passkey oder Sicherheitsschlüssel' },
    unknownDevice: 'einem unbekannten Browser',
    device: '{browser} unter {system}',
    someBrowser: 'einem Browser',
    someSystem: 'einem unbekannten System',
    unknownLocation: 'einer unbekannten Gegend',
  },
  templates: {
    verify_email: {
      subject: 'Bestätigen Sie Ihre E-Mail-Adresse für {{ application.name }}',
      heading: 'E-Mail-Adresse bestätigen',
      paragraphs: ['Bitte bestätigen Sie, dass {{ user.email }} Ihre E-Mail-Adresse ist. Der Link läuft in {{ expiresIn }} ab.'],
      button: 'E-Mail-Adresse bestätigen',
    },
    welcome: {
      subject: '{% if existingAccount %}Sie haben bereits ein Konto bei {{ application.name }}{% else %}Willkommen bei {{ application.name }}{% endif %}',
      heading: 'Willkommen bei {{ application.name }}',
      paragraphs: [
        '{% if existingAccount %}Jemand hat versucht, ein Konto mit {{ user.email }} zu erstellen, für das es bereits eines gibt. ' +
          'Wenn Sie es waren, melden Sie sich an; falls Sie Ihr Passwort vergessen haben, setzen Sie es auf der Anmeldeseite zurück. Wenn nicht, können Sie diese E-Mail ignorieren.' +
          '{% else %}Ihr Konto {{ user.email }} ist bereit. Sie können sich jederzeit anmelden.{% endif %}',
      ],
      button: 'Anmelden',
    },
    magic_link: {
      subject: 'Ihr Anmeldelink für {{ application.name }}',
      heading: 'Bei {{ application.name }} anmelden',
      paragraphs: [
        'Melden Sie sich mit dem Link unten an. Er funktioniert einmal und läuft in {{ expiresIn }} ab.',
        'Wenn Sie ihn nicht angefordert haben, können Sie diese E-Mail ignorieren.',
      ],
      button: 'Anmelden',
    },
    password_reset: {
      subject: 'Ihr Passwort für {{ application.name }} zurücksetzen',
      heading: 'Passwort zurücksetzen',
      paragraphs: [
        'Jemand hat das Zurücksetzen des Passworts von {{ user.email }} angefordert. Der Link läuft in {{ expiresIn }} ab.',
        'Wenn Sie es nicht waren, ignorieren Sie diese E-Mail: Ihr Passwort bleibt, wie es ist.',
      ],
      button: 'Neues Passwort wählen',
    },
    password_changed: {
      subject: 'Ihr Passwort für {{ application.name }} wurde geändert',
      heading: 'Ihr Passwort wurde geändert',
      paragraphs: [
        'Das Passwort von {{ user.email }} wurde am {{ changedAt }} geändert.',
        'Wenn Sie das nicht waren, setzen Sie Ihr Passwort jetzt zurück und wenden Sie sich an den Support.',
      ],
      button: 'Passwort zurücksetzen',
    },
    email_otp: {
      subject: '{{ code }} ist Ihr Code für {{ application.name }}',
      heading: 'Ihr Einmalcode',
      paragraphs: [
        '{% if addsPasskey %}Geben Sie diesen Code ein, um die Einladung anzunehmen und Ihrem Konto einen Passkey hinzuzufügen{% else %}Geben Sie diesen Code ein, um fortzufahren{% endif %}: <strong style="font-size:22px;letter-spacing:4px">{{ code }}</strong>',
        'Er läuft in {{ expiresIn }} ab. Geben Sie ihn niemals weiter.{% if addsPasskey %} Wer ihn hat, kann Ihrem Konto einen eigenen Passkey hinzufügen: Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese E-Mail.{% endif %}',
      ],
    },
    mfa_enrolled: {
      subject: '{% if clonedPasskey %}Ein Passkey wurde aus Ihrem {{ application.name }}-Konto entfernt{% else %}Ihrem Konto bei {{ application.name }} wurde eine Anmeldemethode hinzugefügt{% endif %}',
      heading: '{% if clonedPasskey %}Eine Kopie Ihres Passkeys wurde verwendet{% else %}Neuer zweiter Faktor hinzugefügt{% endif %}',
      paragraphs: [
        '{% if clonedPasskey %}Ihr Passkey „{{ clonedPasskey.name }}“ wurde soeben mit einer Signatur verwendet, die darauf hinweist, dass er kopiert wurde. Wir haben die Anmeldung abgelehnt und den Passkey aus {{ user.email }} entfernt.{% else %}{{ factor }} wurde als zweiter Faktor zu {{ user.email }} hinzugefügt.{% endif %}',
        '{% if clonedPasskey %}Wenn Sie den Schlüssel noch haben, melden Sie sich auf andere Weise an und fügen Sie ihn erneut hinzu. Wenn Sie sich nicht anmelden wollten, sichern Sie jetzt Ihr Konto.{% else %}Wenn Sie das nicht waren, prüfen Sie jetzt Ihre Sicherheitseinstellungen.{% endif %}',
      ],
      button: '{% if clonedPasskey %}Konto sichern{% else %}Sicherheitseinstellungen prüfen{% endif %}',
    },
    invitation: {
      subject: '{% if inviter.name %}{{ inviter.name }} hat Sie zu {{ tenant.name | default: application.name }} eingeladen{% else %}Sie sind zu {{ tenant.name | default: application.name }} eingeladen{% endif %}',
      heading: 'Sie sind eingeladen',
      paragraphs: [
        '{% if inviter.name %}{{ inviter.name }} hat Sie eingeladen{% else %}Sie sind eingeladen{% endif %}, {{ tenant.name | default: application.name }} bei {{ application.name }} beizutreten.',
        'Die Einladung läuft in {{ expiresInDays }} Tagen ab.',
      ],
      button: 'Einladung annehmen',
    },
    new_sign_in: {
      subject: 'Neue Anmeldung bei Ihrem Konto für {{ application.name }}',
      heading: 'Neue Anmeldung',
      paragraphs: [
        'Wir haben am {{ signIn.time }} eine neue Anmeldung bei {{ user.email }} bemerkt, von {{ signIn.device }} in {{ signIn.location }} (IP {{ signIn.ip }}).',
        'Wenn Sie das waren, ist nichts zu tun. Wenn nicht, sichern Sie jetzt Ihr Konto.',
      ],
      button: 'Mein Konto sichern',
    },
    account_locked: {
      subject: 'Ihr Konto bei {{ application.name }} ist gesperrt',
      heading: 'Ihr Konto ist gesperrt',
      paragraphs: [
        'Nach zu vielen fehlgeschlagenen Anmeldeversuchen haben wir {{ user.email }} zu seinem Schutz gesperrt.',
        'Setzen Sie Ihr Passwort zurück, um es zu entsperren.',
      ],
      button: 'Passwort zurücksetzen',
    },
    email_change: {
      subject: '{% if addressChanged %}Die E-Mail-Adresse Ihres Kontos bei {{ application.name }} wurde geändert{% else %}Bestätigen Sie Ihre neue E-Mail-Adresse für {{ application.name }}{% endif %}',
      heading: '{% if addressChanged %}Ihre E-Mail-Adresse wurde geändert{% else %}Neue E-Mail-Adresse bestätigen{% endif %}',
      paragraphs: [
        '{% if addressChanged %}Die Anmeldeadresse Ihres Kontos wurde von {{ user.email }} in {{ newEmail }} geändert: E-Mails zu Ihrem Konto gehen nun dorthin.{% else %}Bestätigen Sie, dass {{ newEmail }} die Adresse {{ user.email }} als Anmeldeadresse ersetzen soll. Der Link läuft in {{ expiresIn }} ab.{% endif %}',
        '{% if addressChanged %}{% if link %}Wenn Sie das waren, ist nichts zu tun. Wenn nicht, öffnen Sie den Link unten innerhalb von {{ expiresIn }}: Mit dem Passwort, das Ihr Konto hatte, wird diese Adresse wieder Ihre Anmeldeadresse, Sie legen ein neues Passwort fest, alle Sitzungen werden beendet und die seitdem hinzugefügten Anmeldemethoden entfernt.{% else %}Wenn Sie diese Änderung nicht erwartet haben, wenden Sie sich an den Support.{% endif %}{% else %}Wenn Sie diese Änderung nicht angefordert haben, ignorieren Sie diese E-Mail.{% endif %}',
      ],
      button: '{% if addressChanged %}Das war ich nicht{% else %}Neue Adresse bestätigen{% endif %}',
    },
    account_deleted: {
      subject: 'Ihr Konto bei {{ application.name }} wurde gelöscht',
      heading: 'Ihr Konto wurde gelöscht',
      paragraphs: ['Das Konto {{ user.email }} und seine Daten wurden gelöscht.', 'Wenn Sie das nicht angefordert haben, wenden Sie sich an den Support.'],
    },
  },
};
