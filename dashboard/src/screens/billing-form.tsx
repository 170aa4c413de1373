import { useId, type FormEvent } from 'react';
import { billingDraftOf, billingOf, type BillingDraft } from '../billing-draft.ts';
import { Outcome } from '../components/status.tsx';
import { DraftNotes } from '../components/draft-notes.tsx';
import { TextField } from '../components/text-field.tsx';
import { useDraft } from '../hooks/use-draft.ts';
import { RefusedField, refusalMarks } from '../hooks/use-refused-field.ts';
import { useSubmission } from '../hooks/use-submission.ts';
import { ORGANIZATION_PLANS, putOrganizationBilling, type Organization, type OrganizationPlan } from '../operations-organization.ts';

interface BillingFormProps {
  organization: Organization;
  onSaved: (organization: Organization) => void;
}

/** The organization's billing settings, saved whole as the API replaces them; the server judges every value. */
export function BillingForm({ organization, onSaved }: BillingFormProps) {
  const [draft, setDraft, sync] = useDraft(billingDraftOf(organization.billing), { keep: { name: 'billing' } });
  const submission = useSubmission<string>();
  const id = useId();
  const set = (field: keyof Omit<BillingDraft, 'plan'>) => (value: string) => setDraft((current) => ({ ...current, [field]: value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submission.run(async () => {
      const saved = await putOrganizationBilling(organization.id, billingOf(draft));
      sync.saved();
      onSaved(saved);
      return 'Billing saved.';
    });
  };

  return (
    <section aria-labelledby="billing-heading">
      <h2 id="billing-heading">Billing</h2>
      <p className="hint">
        Recorded for invoices only: no plan changes what the service allows, and nothing is charged. Saving replaces the
        whole billing: a field left empty is cleared.
      </p>
      <DraftNotes sync={sync} what="billing" />
      <form className="billing-form" noValidate onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${id}-plan`}>Plan</label>
          <select id={`${id}-plan`} {...refusalMarks(submission.refusal, 'plan')} value={draft.plan} onChange={(event) => setDraft((current) => ({ ...current, plan: event.target.value as OrganizationPlan }))}>
            {ORGANIZATION_PLANS.map((plan) => <option key={plan.value} value={plan.value}>{plan.label}</option>)}
          </select>
        </div>
        <RefusedField value={submission.refusal}>
          <TextField label="Billing e-mail" type="email" value={draft.billingEmail} onChange={set('billingEmail')} hint="Where invoices go. Optional." field="billingEmail" />
          <fieldset>
            <legend>Invoice address</legend>
            <p className="hint">Optional: leave every field empty for none. With one, line 1, city and country are required.</p>
            <TextField label="Address line 1" value={draft.line1} onChange={set('line1')} field="address.line1" />
            <TextField label="Address line 2" value={draft.line2} onChange={set('line2')} field="address.line2" />
            <TextField label="City" value={draft.city} onChange={set('city')} field="address.city" />
            <TextField label="Postal code" value={draft.postalCode} onChange={set('postalCode')} field="address.postalCode" />
            <TextField label="Region" value={draft.region} onChange={set('region')} field="address.region" />
            <TextField label="Country" value={draft.country} onChange={set('country')} hint="Its ISO 3166-1 alpha-2 code, e.g. DE." field="address.country" />
          </fieldset>
          <TextField label="Tax id" value={draft.taxId} onChange={set('taxId')} hint="For example a VAT number. Optional." field="taxId" />
        </RefusedField>
        <div className="actions">
          <button type="submit" className="primary" disabled={submission.busy}>Save billing</button>
        </div>
      </form>
      <Outcome outcome={submission.outcome} />
    </section>
  );
}
