/** class-transformer's metadata storage (where `@Type(() => X)` records nested classes), untyped in its package. */
declare module 'class-transformer/cjs/storage' {
  export const defaultMetadataStorage: {
    findTypeMetadata(target: object, propertyName: string): { typeFunction(): unknown } | undefined;
  };
}
