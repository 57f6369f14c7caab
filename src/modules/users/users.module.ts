import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Role } from 'src/modules/roles/role.entity';
import { TenantsModule } from 'src/modules/tenants/tenants.module';
import { MailModule } from 'src/modules/mail/mail.module';
import {
  CurrentUserController,
  UserAccountController,
  UserRegistrationController,
} from './registration.controller';
import { RegistrationService } from './registration.service';
import { User } from './user.entity';
import { UsersController } from './users.controller';
import { SessionUserCache } from './session-user.cache';
import { UsersService } from './users.service';

@Module({
  imports: [TypeOrmModule.forFeature([User, Role]), TenantsModule, MailModule],
  controllers: [UsersController, UserRegistrationController, UserAccountController, CurrentUserController],
  providers: [UsersService, SessionUserCache, RegistrationService],
  exports: [UsersService, SessionUserCache],
})
export class UsersModule {}
