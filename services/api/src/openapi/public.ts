import {
  forgotPasswordRequestSchema,
  loginRequestSchema,
  setPasswordRequestSchema,
  tokenRequestSchema,
} from '@takt/domain';
import { codeLoginSchema, codeRequestSchema, deviceSchema } from '../routes/auth';
import { joinBody } from '../routes/gateway-push';
import type { DocumentedCall } from './call';

// Calls made without a session: logging in, the e-mailed account links, a tablet's activation, a gateway's
// push (its own token), the API description and its reference page, and the two WebSockets (they
// authenticate inside the socket).

const NO_LOGIN = [{}];

export const PUBLIC_CALLS: readonly DocumentedCall[] = [
  {
    method: 'post',
    path: '/login',
    summary: 'Log in with e-mail and password; sets the session cookie',
    access: 'public',
    body: loginRequestSchema,
    security: NO_LOGIN,
  },
  {
    method: 'post',
    path: '/login/device',
    summary: 'Register this device as a tablet (an admin’s credentials); sets the tablet cookie',
    access: 'public',
    body: deviceSchema,
    security: NO_LOGIN,
  },
  {
    method: 'post',
    path: '/login/code/request',
    summary: 'E-mail a one-time login code',
    access: 'public',
    body: codeRequestSchema,
    security: NO_LOGIN,
  },
  {
    method: 'post',
    path: '/login/code',
    summary: 'Log in with an e-mailed code; sets the session cookie',
    access: 'public',
    body: codeLoginSchema,
    security: NO_LOGIN,
  },
  {
    method: 'delete',
    path: '/logout',
    summary: 'End the session',
    access: 'public',
    status: 204,
    security: [{}, { session: [] }],
  },
  {
    method: 'get',
    path: '/timesync',
    summary: 'The server’s clock (epoch ms)',
    access: 'public',
    security: NO_LOGIN,
  },
  {
    method: 'post',
    path: '/api/account/link',
    summary: 'What an e-mailed account link is for (invite or password reset)',
    access: 'public',
    body: tokenRequestSchema,
    security: NO_LOGIN,
  },
  {
    method: 'post',
    path: '/api/account/password',
    summary: 'Set a password with an e-mailed link’s token',
    access: 'public',
    body: setPasswordRequestSchema,
    security: NO_LOGIN,
  },
  {
    method: 'post',
    path: '/api/account/forgot',
    summary: 'E-mail a set-password link (the same answer whether or not the address has an account)',
    access: 'public',
    body: forgotPasswordRequestSchema,
    security: NO_LOGIN,
  },
  {
    method: 'post',
    path: '/tablet/activate',
    summary: 'A registered tablet activates with its device token; sets the tablet cookie',
    access: 'public',
    security: [{ deviceToken: [] }],
  },
  {
    method: 'post',
    path: '/api/gateway-push',
    summary: 'A gateway’s batch of SHDR records; answers the highest stored sequence',
    description: 'The number of records still buffered may also come as the `X-Buffered-Records` header.',
    access: 'public',
    // body: the ingest contract's schema, given to the document by Deps.ingest (document.ts).
    security: [{ gatewayToken: [] }],
  },
  {
    method: 'post',
    path: '/api/gateway-push/join',
    summary: 'A gateway supervisor reports its versions and learns its configuration',
    access: 'public',
    body: joinBody,
    security: [{ gatewayToken: [] }],
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This document (OpenAPI 3.1)',
    access: 'public',
    security: NO_LOGIN,
  },
  {
    method: 'get',
    path: '/api/docs',
    summary: 'The readable reference of this document',
    access: 'public',
    produces: 'text/html; charset=utf-8',
    security: NO_LOGIN,
  },
  {
    method: 'get',
    path: '/api/docs/start.js',
    summary: 'The reference page’s start-up script',
    access: 'public',
    produces: 'text/javascript; charset=utf-8',
    security: NO_LOGIN,
  },
  {
    method: 'get',
    path: '/api/docs/{asset}',
    summary: 'The reference page’s files (Swagger UI, served by this server)',
    access: 'public',
    produces: 'application/octet-stream',
    pathEnums: { asset: ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png'] },
    security: NO_LOGIN,
  },
  {
    method: 'get',
    path: '/live',
    summary: 'The live channel (WebSocket): join a machine or dashboard, receive its changes',
    description: 'Authenticated inside the socket (session cookie or tablet cookie).',
    access: 'public',
    status: 101,
    security: NO_LOGIN,
  },
  {
    method: 'get',
    path: '/tablet-auth',
    summary: 'Tablet registration (WebSocket): show a code, wait for an admin to register it',
    access: 'public',
    status: 101,
    security: NO_LOGIN,
  },
];
