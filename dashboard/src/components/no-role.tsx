/** What an operator whose roles open no screen is shown: that they hold none, and whom to ask. */
export function NoRole({ applicationName }: { applicationName?: string }) {
  return (
    <section aria-labelledby="no-role-heading">
      <h2 id="no-role-heading">No role to manage with</h2>
      <p>
        {`You hold no role that opens a screen of this dashboard${applicationName === undefined ? '' : ` in ${applicationName}`}. `}
        Ask an Application admin of the application you are to manage, who gives operators their roles on its Operators
        tab, or an administrator of your organization&apos;s console.
      </p>
    </section>
  );
}
