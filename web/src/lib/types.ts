export type Role = 'trader' | 'operator';

export interface User {
  id: string;
  email: string;
  name: string;
  role: Role;
  created_at: string;
  last_login: string | null;
}

export interface LoginResult {
  token: string;
  user: User;
}

export interface Health {
  status: 'healthy' | 'degraded' | 'unhealthy' | string;
  checks: Record<string, string>;
  uptime_seconds: number;
  timestamp: string;
}
