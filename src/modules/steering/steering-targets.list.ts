import type { ListSpec } from 'src/common/list-query/list-query';

/**
 * Filters and orderable fields of GET steering/{id}/targets. As in the original, the `target`
 * filter takes the target's id (`?target=7`); ordering by `target` sorts by its xmlId.
 */
export const STEERING_TARGET_LIST: ListSpec = {
  fields: {
    deliveryService: { column: 'ds.xml_id' },
    deliveryServiceId: { column: 'st.deliveryservice', type: 'int' },
    target: { column: 'dst.xml_id', type: 'int', condition: (param) => `st.target = :${param}` },
    targetId: { column: 'st.target', type: 'int' },
    type: { column: 'tp.name' },
    typeId: { column: 'st.type', type: 'int' },
    value: { column: 'st.value', type: 'bigint' },
  },
  defaultOrder: 'target',
  tiebreak: 'st.target',
};
