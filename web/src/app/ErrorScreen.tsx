import { Component, type ErrorInfo, type ReactNode } from 'react';

/** The spec's top-level crash screen. */
export function CrashScreen({ error }: { error: unknown }) {
  const err = error instanceof Error ? error : new Error(String(error));
  return (
    <div role="alert" className="mx-auto mt-24 max-w-xl rounded-lg border border-red-300 bg-white p-8 shadow dark:border-red-800 dark:bg-slate-900">
      <h1 className="text-2xl font-semibold text-red-600 dark:text-red-400">Something went wrong</h1>
      <p className="mt-3 text-slate-600 dark:text-slate-300">
        An unexpected error occurred. Please refresh the page or contact support if the problem persists.
      </p>
      <details className="mt-4 text-sm">
        <summary className="cursor-pointer text-slate-500">Error details</summary>
        <pre className="mt-2 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-100 p-3 text-xs dark:bg-slate-800">
          {err.message}
          {err.stack ? `\n\n${err.stack}` : ''}
        </pre>
      </details>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="mt-6 rounded bg-blue-600 px-4 py-2 font-medium text-white hover:bg-blue-700"
      >
        Refresh Page
      </button>
    </div>
  );
}

/** A route that throws while rendering: the crash screen, cleared when resetKey (the path) changes. */
export class RouteErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, State & { key: string }> {
  state = { error: null as unknown, key: this.props.resetKey };

  static getDerivedStateFromProps(props: { resetKey: string }, state: State & { key: string }) {
    return props.resetKey === state.key ? null : { error: null, key: props.resetKey };
  }

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Uncaught rendering error in a route', error, info.componentStack);
  }

  render() {
    if (this.state.error) return <CrashScreen error={this.state.error} />;
    return this.props.children;
  }
}

interface State {
  error: unknown;
}

/** Catches rendering errors anywhere below it. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Uncaught rendering error', error, info.componentStack);
  }

  render() {
    if (this.state.error) return <CrashScreen error={this.state.error} />;
    return this.props.children;
  }
}
