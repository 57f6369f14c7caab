import {
  BadRequestException,
  Controller,
  Delete,
  Get,
  HttpCode,
  NotFoundException,
  Post,
  Put,
} from '@nestjs/common';
import { ConditionalOn, paramOf } from 'src/common/conditional/conditional.decorator';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import {
  SERVICE_CATEGORY_BODIES,
  ServiceCategoryV3Dto,
  ServiceCategoryV5Dto,
} from './dto/service-category.dto';
import { toServiceCategoryResponse } from './dto/service-category.response';
import { SERVICE_CATEGORY_LIST } from './service-categories.list';
import { ServiceCategoriesService, type ServiceCategoryRules } from './service-categories.service';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { PathText } from 'src/common/request-input/param-rules';
import { ValidPath } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

/** The generic handlers' words (3.x/4.x). */
const GENERIC_RULES: ServiceCategoryRules = {
  duplicateName: (name) => `service_category name '${name}' already exists.`,
  missingOnRename: (current) => new BadRequestException(`no service category found with name ${current}`),
  missingOnDelete: () => 'no serviceCategory with that key found',
  countsAssigned: false,
};

/** The 5.0 handlers' own words and checks. */
const V5_RULES: ServiceCategoryRules = {
  duplicateName: (name) => `service category name '${name}' already exists.`,
  missingOnRename: (current) => new NotFoundException(`service category with name: ${current} not found`),
  missingOnDelete: (name) => `no service category exists for name: ${name}`,
  countsAssigned: true,
};

const rulesOf = (version: ApiVersion): ServiceCategoryRules =>
  version.atLeast('5.0') ? V5_RULES : GENERIC_RULES;

/**
 * `service_categories` (docs/original-behaviour.md#service-categories): list and create; rename and
 * delete by name in the path. 3.x/4.x answer with the original's generic texts, 5.0 with its own.
 */
@ConditionalOn({
  table: 'service_category',
  row: (req) => {
    const name = paramOf(req, 'name');
    return name === undefined ? undefined : { name };
  },
})
@Controller({ path: 'service_categories', version: ALL_VERSIONS })
@ApiTags('service categories')
export class ServiceCategoriesController {
  constructor(private readonly categories: ServiceCategoriesService) {}

  @Get()
  @ApiOperation({ summary: 'List the service categories' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('SERVICE-CATEGORY:READ')
  async list(@ListParams(SERVICE_CATEGORY_LIST) query: ListQuery, @RequestedVersion() version: ApiVersion) {
    return (await this.categories.list(query)).map((sc) => toServiceCategoryResponse(sc, version));
  }

  @Post()
  @CreatedFrom('5.0')
  @ApiOperation({ summary: 'Create a service category' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('SERVICE-CATEGORY:CREATE', 'SERVICE-CATEGORY:READ')
  async create(
    @ValidBody(SERVICE_CATEGORY_BODIES) body: ServiceCategoryV3Dto | ServiceCategoryV5Dto,
    @RequestedVersion() version: ApiVersion,
  ) {
    const sc = await this.categories.create(body.name, rulesOf(version));
    return ApiResult.of(
      toServiceCategoryResponse(sc, version),
      successAlert(version.atLeast('5.0') ? 'service category was created.' : 'serviceCategory was created.'),
    );
  }

  /**
   * 3.x/4.x answer the original's empty object (its handler writes the statement's result, which
   * has no fields), 5.0 the renamed category.
   */
  @Put(':name')
  @ApiOperation({ summary: 'Rename a service category' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('SERVICE-CATEGORY:UPDATE', 'SERVICE-CATEGORY:READ')
  async rename(
    @ValidPath('name', PathText()) name: string,
    @ValidBody(SERVICE_CATEGORY_BODIES) body: ServiceCategoryV3Dto | ServiceCategoryV5Dto,
    @RequestedVersion() version: ApiVersion,
  ) {
    const sc = await this.categories.rename(name, body.name, rulesOf(version));
    if (version.atLeast('5.0')) {
      return ApiResult.of(
        toServiceCategoryResponse(sc, version),
        successAlert('service category was updated'),
      );
    }
    return ApiResult.of(
      {},
      successAlert(`Service Category update from ${name} to ${sc.name} was successful.`),
    );
  }

  @Delete(':name')
  @ApiOperation({ summary: 'Delete a service category' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('SERVICE-CATEGORY:DELETE', 'SERVICE-CATEGORY:READ')
  async remove(@ValidPath('name', PathText()) name: string, @RequestedVersion() version: ApiVersion) {
    await this.categories.remove(name, rulesOf(version));
    return ApiResult.alertsOnly(
      successAlert(version.atLeast('5.0') ? `${name} was deleted.` : 'serviceCategory was deleted.'),
    );
  }
}
