import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RoleCapability } from './role-capability.entity';
import { Role } from './role.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Role, RoleCapability])],
})
export class RolesModule {}
