import type { FormEvent, ReactNode } from 'react';

export function AuthCard({ title, onSubmit, children, footer }: { title: string; onSubmit: (e: FormEvent) => void; children: ReactNode; footer: ReactNode }) {
  return (
    <div className="flex min-h-screen items-center justify-center px-4">
      <form onSubmit={onSubmit} noValidate className="w-full max-w-sm space-y-4 rounded-lg border border-slate-200 bg-white p-8 shadow dark:border-slate-800 dark:bg-slate-900">
        <div>
          <p className="text-lg font-bold text-blue-600 dark:text-blue-400">Kestrel</p>
          <h1 className="mt-1 text-2xl font-semibold">{title}</h1>
        </div>
        {children}
        {footer != null && <p className="text-center text-sm text-slate-500">{footer}</p>}
      </form>
    </div>
  );
}
