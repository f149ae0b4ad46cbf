/** Recovery codes, shown once: the server keeps only their hashes. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div role="status" className="space-y-2 rounded border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950">
      <p className="font-medium">Save these recovery codes now; they are not shown again.</p>
      <p>Each one signs you in once in place of a code from your authenticator app.</p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-1 font-mono">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
    </div>
  );
}

/** The secret to add to an authenticator app, as text: the key and the otpauth link. */
export function TotpKey({ secret, uri }: { secret: string; uri: string }) {
  return (
    <div className="space-y-1 text-sm">
      <p>Add this key to your authenticator app (choose "enter a setup key"), or open the link on the device that has the app.</p>
      <p>
        Key: <code className="select-all break-all font-mono">{secret}</code>
      </p>
      <p className="break-all">
        Link: <a href={uri} className="text-blue-600 hover:underline dark:text-blue-400">{uri}</a>
      </p>
    </div>
  );
}
