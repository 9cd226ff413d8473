import type {
  LoginBody, LoginChallenge, LoginResult, SendCodeBody, SendCodeResult, TotpCodeBody, TotpEnrolment, TotpNewBody, TotpStatus, VerifyBody,
} from '@rampart/contracts';
import { get, post } from './http.ts';

/* Calls of the sign-in verification step and of the authenticator enrolment (shapes: contracts/sign-in-check.ts). */

/** A session, or — when the login check mode asks — a challenge for the verification step. */
export type SignInOutcome = LoginResult | LoginChallenge;
export const isChallenge = (outcome: SignInOutcome): outcome is LoginChallenge => 'verify' in outcome;

// The step's errors show on its fields, not in a modal (errorModal: false).
export const signIn = (body: LoginBody) => post<SignInOutcome>('/login', body);
/** Delivery goes out by SMTP / SMS / WeCom before the answer: allow it longer than an ordinary call. */
export const sendSignInCode = (body: SendCodeBody) => post<SendCodeResult>('/login/code', body, { errorModal: false, timeoutMs: 30_000 });
export const verifySignIn = (body: VerifyBody) => post<LoginResult>('/login/verify', body, { errorModal: false });

export const fetchTotpStatus = () => get<TotpStatus>('/login/totp');
export const startTotp = (body: TotpNewBody) => post<TotpEnrolment>('/login/totp/new', body, { errorModal: false });
export const confirmTotp = (body: TotpCodeBody) => post<void>('/login/totp/confirm', body, { errorModal: false });
export const disableTotp = (body: TotpCodeBody) => post<void>('/login/totp/disable', body, { errorModal: false });
