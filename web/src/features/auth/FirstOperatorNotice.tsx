import { useSetup } from './useSetup';

/**
 * On a server reachable from the network with no account yet, says that the
 * first operator is created on the server (self-registration would let the
 * first visitor own it); the server refuses such a registration anyway.
 */
export function FirstOperatorNotice() {
  const setup = useSetup();
  if (!setup.data?.needs_first_operator || !setup.data.first_operator_from_cli) return null;
  return (
    <div role="note" className="rounded border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200">
      <p className="font-medium">No account exists yet.</p>
      <p className="mt-1">
        This server is reachable from the network, so its first operator is created on the server, not here. Run{' '}
        <code className="break-all font-mono text-xs">kestrel user add --email you@example.com --name &quot;Your Name&quot; --role operator</code> and then sign in.
      </p>
    </div>
  );
}
