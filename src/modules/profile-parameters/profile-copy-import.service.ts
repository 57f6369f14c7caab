import { UnitOfWork } from 'src/common/database/unit-of-work';
import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { translateDbErrors } from 'src/common/database/db-error';
import type { Profile } from 'src/modules/profiles/profile.entity';
import { ProfilesService } from 'src/modules/profiles/profiles.service';
import type { ProfileDto } from 'src/modules/profiles/dto/profile.dto';
import type { ProfileImportBody } from './dto/profile-import.dto';
import { ProfileParametersService } from './profile-parameters.service';

export interface ProfileCopy {
  id: number;
  name: string;
  idCopyFrom: number;
  profileCopyFrom: string;
  description: string;
}

/**
 * A profile copied from another, or imported from an export, with its parameters
 * (docs/original-behaviour.md#profile-copy, #profile-import). The profile is written by the
 * profiles module, its links and new parameters here, all in the request's transaction.
 */
@Injectable()
export class ProfileCopyImportService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly profiles: ProfilesService,
    private readonly links: ProfileParametersService,
  ) {}

  copy(name: string, existingName: string): Promise<ProfileCopy> {
    return this.unitOfWork.run(async (manager) => {
      if (name.includes(' ')) {
        throw new BadRequestException('new Profile name cannot contain spaces');
      }
      const existing = await this.profiles.findByName(existingName);
      if (!existing) {
        throw new NotFoundException(`profile with name ${existingName} does not exist`);
      }
      const created = await this.createProfile(
        {
          name,
          description: existing.description ?? '',
          cdn: existing.cdnId,
          type: existing.type,
          routingDisabled: existing.routingDisabled,
        },
        () => new BadRequestException(`profile with name ${name} already exists`),
      );
      await this.links.copyLinks(manager, existing.id, created.id);
      return {
        id: created.id,
        name: created.name,
        idCopyFrom: existing.id,
        profileCopyFrom: existing.name,
        description: created.description ?? '',
      };
    });
  }

  /**
   * The original's validation list: the fields' problems, then an unknown CDN and a taken name,
   * then the parameters' problems, all in one 400 `validating: …`.
   */
  import(body: ProfileImportBody): Promise<{ profile: Profile; created: number; existing: number }> {
    return this.unitOfWork.run(async (manager) => {
      const problems = [...body.problems];
      let cdnId: number | undefined;
      if (body.cdn !== '') {
        cdnId = await this.links.cdnId(manager, body.cdn);
        if (cdnId === undefined) {
          problems.push(`${body.cdn} CDN does not exist`);
        }
      }
      if (body.name !== '' && (await this.profiles.findByName(body.name))) {
        problems.push(`a profile with the name "${body.name}" already exists`);
      }
      problems.push(...body.parameterProblems);
      if (problems.length > 0 || cdnId === undefined) {
        throw new BadRequestException(`validating: ${problems.join(', ')}`);
      }
      const profile = await this.createProfile(
        {
          name: body.name,
          description: body.description,
          cdn: cdnId,
          type: body.type,
          routingDisabled: false,
        },
        () => new BadRequestException(`validating: a profile with the name "${body.name}" already exists`),
      );
      const counts = await this.links.importParameters(manager, profile.id, body.parameters);
      return { profile, ...counts };
    });
  }

  private createProfile(dto: ProfileDto, taken: () => Error): Promise<Profile> {
    return translateDbErrors(
      () => this.profiles.create(dto),
      (failure) => (failure.kind === 'unique' && failure.table === 'profile' ? taken() : undefined),
    );
  }
}
