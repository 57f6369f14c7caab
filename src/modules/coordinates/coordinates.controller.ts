import {
  BadRequestException,
  NotFoundException,
  Controller,
  Delete,
  Get,
  HttpCode,
  Post,
  Put,
} from '@nestjs/common';
import { ConditionalOn } from 'src/common/conditional/conditional.decorator';
import { RequestedVersion } from 'src/common/decorators/api-version.decorator';
import { PrivLevel, RequirePermissions, RequirePrivLevel } from 'src/common/decorators/auth.decorators';
import { ApiResult, successAlert } from 'src/common/http/alerts';
import { ListParams, type ListQuery } from 'src/common/list-query/list-query';
import { ValidBody } from 'src/common/validation/valid-body';
import { ALL_VERSIONS, type ApiVersion } from 'src/common/versioning/api-version';
import { COORDINATE_LIST } from './coordinates.list';
import { CoordinatesService, type CoordinateInput } from './coordinates.service';
import { CoordinateDto } from './dto/coordinate.dto';
import { toCoordinateResponse } from './dto/coordinate.response';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { IntKey, IntParam } from 'src/common/request-input/param-rules';
import { ValidQuery } from 'src/common/request-input/request-input';
import { CreatedFrom } from 'src/common/wire/created-from';

/** `?id=`: the generic handlers' key before 5.0, the hand-written handlers' from 5.0 on. */
const QUERY_ID = { '3.0': IntKey(), '5.0': IntParam() };

/** The body as the service takes it: an absent latitude or longitude is 0 on 5.0, else left NULL (a 400). */
function coordinateInput(dto: CoordinateDto, version: ApiVersion): CoordinateInput {
  const absent = version.atLeast('5.0') ? 0 : null;
  return { name: dto.name, latitude: dto.latitude ?? absent, longitude: dto.longitude ?? absent };
}

/** The 404 of a missing coordinate, in the version's words. */
function coordinateNotFound(id: number, version: ApiVersion, generic: string): NotFoundException {
  return new NotFoundException(version.atLeast('5.0') ? `no such Coordinate: #${id}` : generic);
}

/**
 * `coordinates`, updated and deleted by `?id=` (docs/original-behaviour.md#coordinates): the generic
 * handlers' texts on 3.x/4.x, the 5.0 handlers' own (`Coordinate '<name>' (#<id>) created`).
 */
@ConditionalOn('coordinate')
@Controller({ path: 'coordinates', version: ALL_VERSIONS })
@ApiTags('coordinates')
export class CoordinatesController {
  constructor(private readonly coordinates: CoordinatesService) {}

  @Get()
  @ApiOperation({ summary: 'List the coordinates' })
  @RequirePrivLevel(PrivLevel.ReadOnly)
  @RequirePermissions('COORDINATE:READ')
  async list(@ListParams(COORDINATE_LIST) query: ListQuery, @RequestedVersion() version: ApiVersion) {
    return (await this.coordinates.list(query)).map((c) => toCoordinateResponse(c, version));
  }

  @Post()
  @CreatedFrom('5.0')
  @ApiOperation({ summary: 'Create a coordinate' })
  @HttpCode(200)
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('COORDINATE:CREATE', 'COORDINATE:READ')
  async create(@ValidBody(CoordinateDto) dto: CoordinateDto, @RequestedVersion() version: ApiVersion) {
    const c = await this.coordinates.create(coordinateInput(dto, version));
    return ApiResult.of(
      toCoordinateResponse(c, version),
      successAlert(
        version.atLeast('5.0') ? `Coordinate '${c.name}' (#${c.id}) created` : 'coordinate was created.',
      ),
    );
  }

  @Put()
  @ApiOperation({ summary: 'Update a coordinate' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('COORDINATE:UPDATE', 'COORDINATE:READ')
  async update(
    @ValidQuery('id', QUERY_ID) id: number,
    @ValidBody(CoordinateDto) dto: CoordinateDto,
    @RequestedVersion() version: ApiVersion,
  ) {
    const v5 = version.atLeast('5.0');
    if (v5 && dto.id !== undefined && dto.id !== null && dto.id !== id) {
      throw new BadRequestException(
        `ID mismatch; URI specifies ${id} but payload is for Coordinate #${dto.id}`,
      );
    }
    const c = await this.coordinates.update(id, coordinateInput(dto, version));
    if (!c) {
      throw coordinateNotFound(id, version, 'no coordinate found with this id');
    }
    return ApiResult.of(
      toCoordinateResponse(c, version),
      successAlert(v5 ? `Coordinate '${c.name}' (#${id}) updated` : 'coordinate was updated.'),
    );
  }

  /** 5.0 answers the deleted coordinate with its alert; 3.x/4.x only the alert. */
  @Delete()
  @ApiOperation({ summary: 'Delete a coordinate' })
  @RequirePrivLevel(PrivLevel.Operations)
  @RequirePermissions('COORDINATE:DELETE', 'COORDINATE:READ')
  async remove(@ValidQuery('id', QUERY_ID) id: number, @RequestedVersion() version: ApiVersion) {
    const c = await this.coordinates.remove(id);
    if (!c) {
      throw coordinateNotFound(id, version, 'no coordinate with that key found');
    }
    return version.atLeast('5.0')
      ? ApiResult.of(
          toCoordinateResponse(c, version),
          successAlert(`Coordinate '${c.name}' (#${id}) deleted`),
        )
      : ApiResult.alertsOnly(successAlert('coordinate was deleted.'));
  }
}
