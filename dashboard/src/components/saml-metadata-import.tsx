import { useState } from 'react';
import { errorMessage } from '../error-message.ts';
import { idpSettingsOf, type IdpSettings } from '../saml-metadata.ts';
import { ErrorMessage } from './status.tsx';
import { TextField } from './text-field.tsx';

/**
 * The IdP's metadata XML pasted, to fill the entity id, sign-in URL and certificate below. Read in the browser: the API
 * takes the settings themselves, and the page may fetch nothing from another host, so a metadata URL is opened by hand.
 */
export function SamlMetadataImport({ onImport }: { onImport: (settings: IdpSettings) => void }) {
  const [xml, setXml] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const read = () => {
    try {
      onImport(idpSettingsOf(xml));
      setFailure(null);
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };
  return (
    <div>
      <TextField label="IdP metadata (XML)" rows={4} value={xml} onChange={setXml} hint="Optional: paste it to fill the three fields below." />
      <div className="actions">
        <button type="button" onClick={read}>Fill from metadata</button>
      </div>
      {failure !== null && <ErrorMessage message={failure} />}
    </div>
  );
}
