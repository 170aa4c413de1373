import type { MailCopy } from './mail-copy.ts';

export const FR: MailCopy = {
  greeting: 'Bonjour{% if user.name %} {{ user.name }}{% endif %},',
  words: {
    factors: { totp: 'Application d’authentification', email_otp: 'Code par e-mail', webauthn: 'Clé d’accès ou clé de sécurité' },
    unknownDevice: 'un navigateur inconnu',
    device: '{browser} sous {system}',
    someBrowser: 'un navigateur',
    someSystem: 'un système inconnu',
    unknownLocation: 'un endroit inconnu',
  },
  templates: {
    verify_email: {
      subject: 'Vérifiez votre adresse e-mail pour {{ application.name }}',
      heading: 'Vérifiez votre adresse e-mail',
      paragraphs: ['Veuillez confirmer que {{ user.email }} est bien votre adresse e-mail. Le lien expire dans {{ expiresIn }}.'],
      button: 'Vérifier l’adresse e-mail',
    },
    welcome: {
      subject: '{% if existingAccount %}Vous avez déjà un compte {{ application.name }}{% else %}Bienvenue sur {{ application.name }}{% endif %}',
      heading: 'Bienvenue sur {{ application.name }}',
      paragraphs: [
        '{% if existingAccount %}Quelqu’un a essayé de créer un compte avec {{ user.email }}, qui en a déjà un. ' +
          'Si c’était vous, connectez-vous ; si vous avez oublié votre mot de passe, réinitialisez-le depuis la page de connexion. Sinon, vous pouvez ignorer cet e-mail.' +
          '{% else %}Votre compte {{ user.email }} est prêt. Vous pouvez vous connecter à tout moment.{% endif %}',
      ],
      button: 'Se connecter',
    },
    magic_link: {
      subject: 'Votre lien de connexion pour {{ application.name }}',
      heading: 'Connexion à {{ application.name }}',
      paragraphs: [
        'Utilisez le lien ci-dessous pour vous connecter. Il fonctionne une fois et expire dans {{ expiresIn }}.',
        'Si vous ne l’avez pas demandé, vous pouvez ignorer cet e-mail.',
      ],
      button: 'Se connecter',
    },
    password_reset: {
      subject: 'Réinitialisez votre mot de passe {{ application.name }}',
      heading: 'Réinitialisez votre mot de passe',
      paragraphs: [
        'Quelqu’un a demandé à réinitialiser le mot de passe de {{ user.email }}. Le lien expire dans {{ expiresIn }}.',
        'Si ce n’était pas vous, ignorez cet e-mail : votre mot de passe reste inchangé.',
      ],
      button: 'Choisir un nouveau mot de passe',
    },
    password_changed: {
      subject: 'Votre mot de passe {{ application.name }} a été changé',
      heading: 'Votre mot de passe a été changé',
      paragraphs: [
        'Le mot de passe de {{ user.email }} a été changé le {{ changedAt }}.',
        'Si ce n’était pas vous, réinitialisez votre mot de passe maintenant et contactez le support.',
      ],
      button: 'Réinitialiser le mot de passe',
    },
    email_otp: {
      subject: '{{ code }} est votre code {{ application.name }}',
      heading: 'Votre code à usage unique',
      paragraphs: [
        '{% if addsPasskey %}Saisissez ce code pour accepter l’invitation et ajouter une clé d’accès à votre compte{% else %}Saisissez ce code pour continuer{% endif %} : <strong style="font-size:22px;letter-spacing:4px">{{ code }}</strong>',
        'Il expire dans {{ expiresIn }}. Ne le communiquez jamais à personne.{% if addsPasskey %} Quiconque l’a peut ajouter sa propre clé d’accès à votre compte : si vous ne l’avez pas demandé, ignorez cet e-mail.{% endif %}',
      ],
    },
    mfa_enrolled: {
      subject: '{% if clonedPasskey %}Une clé d’accès a été retirée de votre compte {{ application.name }}{% else %}Une méthode de connexion a été ajoutée à votre compte {{ application.name }}{% endif %}',
      heading: '{% if clonedPasskey %}Une copie de votre clé d’accès a été utilisée{% else %}Nouveau deuxième facteur ajouté{% endif %}',
      paragraphs: [
        '{% if clonedPasskey %}Votre clé d’accès « {{ clonedPasskey.name }} » vient d’être utilisée avec une signature indiquant qu’elle a peut-être été copiée. Nous avons refusé la connexion et retiré la clé d’accès de {{ user.email }}.{% else %}{{ factor }} a été ajouté comme deuxième facteur à {{ user.email }}.{% endif %}',
        '{% if clonedPasskey %}Si vous avez toujours la clé, connectez-vous autrement et ajoutez-la de nouveau. Si vous n’avez pas essayé de vous connecter, sécurisez votre compte maintenant.{% else %}Si ce n’était pas vous, vérifiez vos paramètres de sécurité maintenant.{% endif %}',
      ],
      button: '{% if clonedPasskey %}Sécuriser mon compte{% else %}Vérifier les paramètres de sécurité{% endif %}',
    },
    invitation: {
      subject: '{% if inviter.name %}{{ inviter.name }} vous invite{% else %}Vous êtes invité{% endif %} à rejoindre {{ tenant.name | default: application.name }}',
      heading: 'Vous êtes invité',
      paragraphs: [
        '{% if inviter.name %}{{ inviter.name }} vous invite{% else %}Vous êtes invité{% endif %} à rejoindre {{ tenant.name | default: application.name }} sur {{ application.name }}.',
        'L’invitation expire dans {{ expiresInDays }} jours.',
      ],
      button: 'Accepter l’invitation',
    },
    new_sign_in: {
      subject: 'Nouvelle connexion à votre compte {{ application.name }}',
      heading: 'Nouvelle connexion',
      paragraphs: [
        'Nous avons remarqué une nouvelle connexion à {{ user.email }} le {{ signIn.time }} depuis {{ signIn.device }} à {{ signIn.location }} (IP {{ signIn.ip }}).',
        'Si c’était vous, il n’y a rien à faire. Sinon, sécurisez votre compte maintenant.',
      ],
      button: 'Sécuriser mon compte',
    },
    account_locked: {
      subject: 'Votre compte {{ application.name }} est verrouillé',
      heading: 'Votre compte est verrouillé',
      paragraphs: [
        'Après trop de tentatives de connexion échouées, nous avons verrouillé {{ user.email }} pour le protéger.',
        'Réinitialisez votre mot de passe pour le déverrouiller.',
      ],
      button: 'Réinitialiser le mot de passe',
    },
    email_change: {
      subject: '{% if addressChanged %}L’adresse e-mail de votre compte {{ application.name }} a été changée{% else %}Confirmez votre nouvelle adresse e-mail pour {{ application.name }}{% endif %}',
      heading: '{% if addressChanged %}Votre adresse e-mail a été changée{% else %}Confirmez votre nouvelle adresse e-mail{% endif %}',
      paragraphs: [
        '{% if addressChanged %}L’adresse de connexion de votre compte est passée de {{ user.email }} à {{ newEmail }} : les e-mails concernant votre compte y sont désormais envoyés.{% else %}Confirmez que {{ newEmail }} doit remplacer {{ user.email }} comme adresse de connexion. Le lien expire dans {{ expiresIn }}.{% endif %}',
        '{% if addressChanged %}{% if link %}Si c’était vous, il n’y a rien à faire. Sinon, ouvrez le lien ci-dessous dans un délai de {{ expiresIn }} : avec le mot de passe qu’avait votre compte, cette adresse redevient votre adresse de connexion, vous choisissez un nouveau mot de passe, toutes les sessions sont fermées et les méthodes de connexion ajoutées depuis sont retirées.{% else %}Si vous ne vous attendiez pas à ce changement, contactez le support.{% endif %}{% else %}Si vous n’avez pas demandé ce changement, ignorez cet e-mail.{% endif %}',
      ],
      button: '{% if addressChanged %}Ce n’était pas moi{% else %}Confirmer la nouvelle adresse{% endif %}',
    },
    account_deleted: {
      subject: 'Votre compte {{ application.name }} a été supprimé',
      heading: 'Votre compte a été supprimé',
      paragraphs: ['Le compte {{ user.email }} et ses données ont été supprimés.', 'Si vous ne l’avez pas demandé, contactez le support.'],
    },
  },
};
