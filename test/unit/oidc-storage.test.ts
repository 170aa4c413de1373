import Provider, { type Adapter } from 'oidc-provider';
import { describe, expect, it } from 'vitest';
import { CLAIM_KEY, OIDC_STORAGE_CHECKED_WITH, PROVIDER_FIELDS_READ, PROVIDER_MODELS } from '../../src/db/oidc-model.ts';
import { oidcProviderVersions } from '../support/oidc-provider-version.ts';

/**
 * What oidc-provider stores in `oidc_model` (src/db/oidc-model.ts): the models' names and the payload fields our
 * statements read hold for the version they were checked with, so an upgrade fails here until they are checked again.
 */
const where = 'src/db/oidc-model.ts';

type ModelClass = (abstract new (...args: never[]) => unknown) & { readonly adapter: Adapter; readonly name: string; readonly IN_PAYLOAD?: readonly string[] };

/** The provider's model classes, as its getters (`provider.Grant`, …) hand them out; abstract bases included. */
function modelClasses(provider: Provider): ModelClass[] {
  return Object.entries(Object.getOwnPropertyDescriptors(Provider.prototype)).flatMap(([name, descriptor]) => {
    if (!/^[A-Z]/.test(name) || descriptor.get === undefined) return [];
    const value: unknown = descriptor.get.call(provider);
    return typeof value === 'function' && 'adapter' in value ? [value as ModelClass] : [];
  });
}

/** The names the provider hands its adapter factory: one per model it stores, asked for as it first uses each. */
function storedModelNames(): string[] {
  const asked = new Set<string>();
  const provider = new Provider('http://op.test', {
    adapter: (name: string) => {
      asked.add(name);
      return {} as Adapter;
    },
  });
  const classes = modelClasses(provider);
  // An abstract base (BaseToken) is never stored: only the classes nothing else extends.
  for (const model of classes.filter((base) => !classes.some((other) => Object.getPrototypeOf(other) === base))) void model.adapter;
  return [...asked].sort();
}

describe('oidc-provider’s storage', () => {
  it('was checked with the installed oidc-provider, the one package.json pins', () => {
    const { pinned, installed } = oidcProviderVersions();
    const recheck = `oidc-provider ${installed} (package.json: ${pinned}) is not the version ${where} was checked with (${OIDC_STORAGE_CHECKED_WITH}): check its model names and payload fields again`;
    expect(installed, recheck).toBe(OIDC_STORAGE_CHECKED_WITH);
    expect(pinned, recheck).toBe(OIDC_STORAGE_CHECKED_WITH);
  });

  it('stores the models PROVIDER_MODELS names, and no other', () => {
    expect(storedModelNames(), `oidc-provider's models are not those ${where} names`).toEqual([...PROVIDER_MODELS].sort());
  });

  it('keeps in each model’s payload the fields our statements read', () => {
    const provider = new Provider('http://op.test', {});
    const classes = new Map(modelClasses(provider).map((model) => [model.name, model]));
    for (const [model, fields] of Object.entries(PROVIDER_FIELDS_READ)) {
      const kept = classes.get(model)?.IN_PAYLOAD ?? [];
      expect(fields.filter((field) => !kept.includes(field)), `${model}: fields ${where} reads that oidc-provider no longer stores`).toEqual([]);
    }
  });

  it('saves an interaction without the claim we write beside its fields: the save of its result ends the claim', () => {
    const interaction = modelClasses(new Provider('http://op.test', {})).find((model) => model.name === 'Interaction');
    expect(interaction?.IN_PAYLOAD).toBeDefined();
    expect(interaction?.IN_PAYLOAD).not.toContain(CLAIM_KEY);
  });
});
