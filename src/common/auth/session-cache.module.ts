import { Module } from '@nestjs/common';
import { SessionUserCache } from './session-user.cache';

/**
 * The one SessionUserCache of the application: the modules that change users or roles (users, roles)
 * and the session check (auth) import this module and so share one instance.
 */
@Module({ providers: [SessionUserCache], exports: [SessionUserCache] })
export class SessionCacheModule {}
