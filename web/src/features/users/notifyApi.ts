import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '@/api/schema';
import { api } from '@/lib/api';
import { notifyKeys } from '@/lib/queryKeys';

/** Notifications: the user's channels (webhooks, Telegram, email, browser push), routing and delivery log. */
export type Channel = components['schemas']['NotificationChannel'];
export type CreatedChannel = components['schemas']['NotificationChannelCreated'];
export type ChannelInput = components['schemas']['NotificationChannelInput'];
export type Routing = components['schemas']['NotificationRouting'];
export type RoutingView = components['schemas']['NotificationRoutingView'];
export type Delivery = components['schemas']['NotificationDelivery'];
export type PushSubscriptionInput = components['schemas']['PushSubscription'];

export const notifyKey = notifyKeys.all;

export const notifyApi = {
  channels: () => api.get<Channel[]>('/notifications/channels'),
  create: (c: ChannelInput) => api.post<CreatedChannel>('/notifications/channels', c),
  remove: (id: string) => api.del<{ id: string }>(`/notifications/channels/${encodeURIComponent(id)}`),
  test: (id: string) => api.post<Delivery>(`/notifications/channels/${encodeURIComponent(id)}/test`),
  routing: () => api.get<RoutingView>('/notifications/routing'),
  setRouting: (r: Routing) => api.put<RoutingView>('/notifications/routing', r),
  pushKey: () => api.get<{ public_key: string }>('/notifications/push/key'),
  /** Turns on the Push switch (Settings → UI Preferences → Notifications) that lets push channels send. */
  allowPush: () => api.put<unknown>('/settings', { ui: { notifications: { push: true } } }),
  deliveries: (allFailures: boolean) => api.get<Delivery[]>(`/notifications/deliveries?limit=50${allFailures ? '&scope=all&status=failed' : ''}`),
};

export function useChannels() {
  return useQuery({ queryKey: notifyKeys.channels, queryFn: notifyApi.channels });
}

export function useRouting() {
  return useQuery({ queryKey: notifyKeys.routing, queryFn: notifyApi.routing });
}

/** The user's own delivery log, or (operators) every user's failures. */
export function useDeliveries(allFailures: boolean) {
  return useQuery({ queryKey: notifyKeys.deliveries(allFailures), queryFn: () => notifyApi.deliveries(allFailures), refetchInterval: 10_000 });
}

/** A mutation that refreshes channels, routing and the log when it settles. */
export function useNotifyMutation<A, R>(fn: (a: A) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, retry: 0, onSettled: () => qc.invalidateQueries({ queryKey: notifyKey }) });
}
