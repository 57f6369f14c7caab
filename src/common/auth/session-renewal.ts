import type { Request, Response } from 'express';

/**
 * Renews the request's session on the response (docs/decisions.md#d18). The auth module's
 * SessionService is the implementation; AppModule binds it to SESSION_RENEWAL so that
 * AllExceptionsFilter can renew without common/ importing a module (docs/architecture.md#ownership).
 */
export interface SessionRenewal {
  renew(req: Request, res: Response): Promise<void>;
}

export const SESSION_RENEWAL = Symbol('SESSION_RENEWAL');
