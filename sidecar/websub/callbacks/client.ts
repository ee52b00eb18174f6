/**
 * The hub's client for subscriber callbacks: the service's outbound client (sidecar/outbound/) with the
 * hub's name in its messages ("the callback host … which the hub does not call") and its limits.
 */
import {
  createOutboundClient,
  OUTBOUND_DEFAULTS,
  type OutboundClient,
  type OutboundClientOptions,
  type OutboundFailure,
  type OutboundRequest,
  type OutboundResult,
} from '../../outbound/outbound-client.ts';

export type CallbackClient = OutboundClient;
export type CallbackRequest = OutboundRequest;
export type CallbackResult = OutboundResult;
export type CallbackFailure = OutboundFailure;
export type CallbackClientOptions = Omit<OutboundClientOptions, 'subject' | 'allowPrivate'> & { allowPrivateCallbacks: boolean };

export const CALLBACK_CLIENT_DEFAULTS = { ...OUTBOUND_DEFAULTS, userAgent: 'reviews-service-websub-hub/1.0' } as const;

export function createCallbackClient(options: CallbackClientOptions): CallbackClient {
  const { allowPrivateCallbacks, ...rest } = options;
  return createOutboundClient({
    userAgent: CALLBACK_CLIENT_DEFAULTS.userAgent,
    ...rest,
    allowPrivate: allowPrivateCallbacks,
    subject: { noun: 'the callback', refusal: 'which the hub does not call' },
  });
}
