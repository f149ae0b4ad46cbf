import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorBox, Field } from '@/components/Field';
import { btn, Modal } from '@/components/Modal';
import { ApiError, errorMessage } from '@/lib/api';
import { settingsApi } from '../api';
import type { ExportFile } from '../types';

export const SECRET_EXPORT_WARNING =
  'The file will hold the exchange API key and secret and the AI token in plain text. Anyone with the file can trade on the account. The export is recorded in the audit log.';

/**
 * Exports the settings with their secrets in plain text: operators only, after
 * entering their password again (POST /settings/export).
 */
export function SecretExport({ onExported }: { onExported: (file: ExportFile) => void }) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const exportM = useMutation({
    mutationFn: settingsApi.exportSecrets,
    onSuccess: (file) => {
      setPassword('');
      setOpen(false);
      onExported(file);
    },
  });
  const fields = exportM.error instanceof ApiError ? exportM.error.fields : {};
  const close = () => {
    setOpen(false);
    setPassword('');
    exportM.reset();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    exportM.mutate(password);
  };
  return (
    <>
      <button type="button" className={btn.secondary} onClick={() => setOpen(true)}>
        Export with secrets
      </button>
      {open && (
        <Modal title="Export with secrets" onClose={close}>
          <form onSubmit={submit} noValidate className="space-y-3">
            <p className="text-sm text-amber-700 dark:text-amber-400">{SECRET_EXPORT_WARNING}</p>
            <Field
              id="secret-export-password"
              label="Your password"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              error={fields.password}
            />
            {exportM.error && !fields.password && <ErrorBox message={errorMessage(exportM.error, 'Could not export settings')} />}
            <div className="flex justify-end gap-2">
              <button type="button" className={btn.secondary} onClick={close}>
                Cancel
              </button>
              <button type="submit" className={btn.danger} disabled={exportM.isPending || password === ''}>
                {exportM.isPending ? 'Exporting...' : 'Export with secrets'}
              </button>
            </div>
          </form>
        </Modal>
      )}
    </>
  );
}
