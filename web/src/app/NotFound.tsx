import { Link } from 'react-router-dom';

export default function NotFound() {
  return (
    <div className="mx-auto mt-24 max-w-lg text-center">
      <h1 className="text-3xl font-semibold">Page Not Found</h1>
      <p className="mt-3 text-slate-500 dark:text-slate-400">The page you&apos;re looking for doesn&apos;t exist.</p>
      <Link to="/dashboard" className="mt-6 inline-block rounded bg-blue-600 px-4 py-2 text-white hover:bg-blue-700">
        Back to Dashboard
      </Link>
    </div>
  );
}
