import type { MailCopy } from './mail-copy.ts';

export const ES: MailCopy = {
  greeting: 'Hola{% if user.name %} {{ user.name }}{% endif %}:',
  words: {
    factors: { totp: 'Aplicación de autenticación', email_otp: 'Código por correo', webauthn: 'Llave de acceso o llave de seguridad' },
    unknownDevice: 'un navegador desconocido',
    device: '{browser} en {system}',
    someBrowser: 'un navegador',
    someSystem: 'un sistema desconocido',
    unknownLocation: 'una ubicación desconocida',
  },
  templates: {
    verify_email: {
      subject: 'Verifique su correo electrónico para {{ application.name }}',
      heading: 'Verifique su correo electrónico',
      paragraphs: ['Confirme que {{ user.email }} es su correo electrónico. El enlace caduca en {{ expiresIn }}.'],
      button: 'Verificar el correo electrónico',
    },
    welcome: {
      subject: '{% if existingAccount %}Ya tiene una cuenta de {{ application.name }}{% else %}Bienvenido a {{ application.name }}{% endif %}',
      heading: 'Bienvenido a {{ application.name }}',
      paragraphs: [
        '{% if existingAccount %}Alguien intentó crear una cuenta con {{ user.email }}, que ya tiene una. ' +
          'Si fue usted, inicie sesión; si olvidó su contraseña, restablézcala desde la página de inicio de sesión. Si no, puede ignorar este correo.' +
          '{% else %}Su cuenta {{ user.email }} está lista. Puede iniciar sesión cuando quiera.{% endif %}',
      ],
      button: 'Iniciar sesión',
    },
    magic_link: {
      subject: 'Su enlace de inicio de sesión para {{ application.name }}',
      heading: 'Inicie sesión en {{ application.name }}',
      paragraphs: [
        'Use el enlace de abajo para iniciar sesión. Funciona una vez y caduca en {{ expiresIn }}.',
        'Si no lo pidió, puede ignorar este correo.',
      ],
      button: 'Iniciar sesión',
    },
    password_reset: {
      subject: 'Restablezca su contraseña de {{ application.name }}',
      heading: 'Restablezca su contraseña',
      paragraphs: [
        'Alguien pidió restablecer la contraseña de {{ user.email }}. El enlace caduca en {{ expiresIn }}.',
        'Si no fue usted, ignore este correo: su contraseña no cambia.',
      ],
      button: 'Elegir una contraseña nueva',
    },
    password_changed: {
      subject: 'Se cambió su contraseña de {{ application.name }}',
      heading: 'Se cambió su contraseña',
      paragraphs: [
        'La contraseña de {{ user.email }} se cambió el {{ changedAt }}.',
        'Si no fue usted, restablezca su contraseña ahora y contacte con el soporte.',
      ],
      button: 'Restablecer la contraseña',
    },
    email_otp: {
      subject: '{{ code }} es su código de {{ application.name }}',
      heading: 'Su código de un solo uso',
      paragraphs: [
        '{% if addsPasskey %}Introduzca este código para aceptar la invitación y añadir una llave de acceso a su cuenta{% else %}Introduzca este código para continuar{% endif %}: <strong style="font-size:22px;letter-spacing:4px">{{ code }}</strong>',
        'Caduca en {{ expiresIn }}. No lo comparta nunca con nadie.{% if addsPasskey %} Quien lo tenga puede añadir su propia llave de acceso a su cuenta: si no lo ha pedido, ignore este correo.{% endif %}',
      ],
    },
    mfa_enrolled: {
      subject: '{% if clonedPasskey %}Se ha quitado una llave de acceso de su cuenta de {{ application.name }}{% else %}Se añadió un método de inicio de sesión a su cuenta de {{ application.name }}{% endif %}',
      heading: '{% if clonedPasskey %}Se ha usado una copia de su llave de acceso{% else %}Nuevo segundo factor añadido{% endif %}',
      paragraphs: [
        '{% if clonedPasskey %}Su llave de acceso «{{ clonedPasskey.name }}» se acaba de usar con una firma que indica que puede haber sido copiada. Hemos rechazado el inicio de sesión y hemos quitado la llave de acceso de {{ user.email }}.{% else %}{{ factor }} se añadió como segundo factor a {{ user.email }}.{% endif %}',
        '{% if clonedPasskey %}Si todavía tiene la llave, inicie sesión de otra forma y añádala de nuevo. Si no intentó iniciar sesión, proteja su cuenta ahora.{% else %}Si no fue usted, revise ahora su configuración de seguridad.{% endif %}',
      ],
      button: '{% if clonedPasskey %}Proteger mi cuenta{% else %}Revisar la configuración de seguridad{% endif %}',
    },
    invitation: {
      subject: '{% if inviter.name %}{{ inviter.name }} le invitó{% else %}Está invitado{% endif %} a {{ tenant.name | default: application.name }}',
      heading: 'Está invitado',
      paragraphs: [
        '{% if inviter.name %}{{ inviter.name }} le invitó{% else %}Está invitado{% endif %} a unirse a {{ tenant.name | default: application.name }} en {{ application.name }}.',
        'La invitación caduca en {{ expiresInDays }} días.',
      ],
      button: 'Aceptar la invitación',
    },
    new_sign_in: {
      subject: 'Nuevo inicio de sesión en su cuenta de {{ application.name }}',
      heading: 'Nuevo inicio de sesión',
      paragraphs: [
        'Detectamos un nuevo inicio de sesión en {{ user.email }} el {{ signIn.time }} desde {{ signIn.device }} en {{ signIn.location }} (IP {{ signIn.ip }}).',
        'Si fue usted, no tiene que hacer nada. Si no, proteja su cuenta ahora.',
      ],
      button: 'Proteger mi cuenta',
    },
    account_locked: {
      subject: 'Su cuenta de {{ application.name }} está bloqueada',
      heading: 'Su cuenta está bloqueada',
      paragraphs: [
        'Tras demasiados intentos fallidos de inicio de sesión, bloqueamos {{ user.email }} para protegerla.',
        'Restablezca su contraseña para desbloquearla.',
      ],
      button: 'Restablecer la contraseña',
    },
    email_change: {
      subject: '{% if addressChanged %}Se cambió el correo electrónico de su cuenta de {{ application.name }}{% else %}Confirme su nuevo correo electrónico para {{ application.name }}{% endif %}',
      heading: '{% if addressChanged %}Se cambió su correo electrónico{% else %}Confirme su nuevo correo electrónico{% endif %}',
      paragraphs: [
        '{% if addressChanged %}La dirección de inicio de sesión de su cuenta cambió de {{ user.email }} a {{ newEmail }}: el correo sobre su cuenta se envía ahora allí.{% else %}Confirme que {{ newEmail }} debe sustituir a {{ user.email }} como su dirección de inicio de sesión. El enlace caduca en {{ expiresIn }}.{% endif %}',
        '{% if addressChanged %}{% if link %}Si fue usted, no tiene que hacer nada. Si no, abra el enlace de abajo en un plazo de {{ expiresIn }}: con la contraseña que tenía su cuenta, esta dirección vuelve a ser su dirección de inicio de sesión, elige una contraseña nueva, se cierran todas las sesiones y se quitan los métodos de inicio de sesión añadidos desde entonces.{% else %}Si no esperaba este cambio, contacte con el soporte.{% endif %}{% else %}Si no pidió este cambio, ignore este correo.{% endif %}',
      ],
      button: '{% if addressChanged %}No fui yo{% else %}Confirmar la nueva dirección{% endif %}',
    },
    account_deleted: {
      subject: 'Se eliminó su cuenta de {{ application.name }}',
      heading: 'Se eliminó su cuenta',
      paragraphs: ['La cuenta {{ user.email }} y sus datos se eliminaron.', 'Si no lo pidió, contacte con el soporte.'],
    },
  },
};
