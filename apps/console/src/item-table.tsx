/**
 * The console's tables: items in rows, each row with its actions and a remove button where the page has them
 * (remove a source or a policy rule, revoke a key), and the notice of the last action's answer.
 */
import type { ComponentChildren } from "preact"
import { useState } from "preact/hooks"
import { errorText } from "./api.js"

export interface Column<T> {
  header: string
  cell: (item: T) => ComponentChildren
  /** the cell's class */
  class?: (item: T) => string
}

export interface Removal<T> {
  /** the button's word: Remove, Revoke */
  verb: string
  run: (item: T) => Promise<Response>
  /** asked first, when set */
  confirm?: (item: T) => string
  /** what the cell shows instead of the button for an item that cannot be removed (a revoked key) */
  instead?: (item: T) => ComponentChildren | null
}

/**
 * Runs an action (an API call), then reloads: the message is the error the API answered, or what `ok` makes of a
 * success ("" shows nothing).
 */
export const useAction = (reload: () => void) => {
  const [message, setMessage] = useState("")
  const act = async (request: Promise<Response>, ok: (response: Response) => Promise<string> | string = () => "") => {
    const response = await request
    setMessage(response.ok ? await ok(response) : await errorText(response))
    reload()
    return response.ok
  }
  return { message, setMessage, act }
}

/** an action's error or news; nothing when there is none */
export const Notice = ({ message }: { message: string }) =>
  message ? (
    <p role="alert" class="error">
      {message}
    </p>
  ) : null

export const ItemTable = <T,>({
  items,
  columns,
  rowData,
  name = () => "",
  testId,
  actionsHeader = "Actions",
  actions,
  remove,
  act = () => undefined,
}: {
  items: T[]
  columns: Column<T>[]
  /** the row's data attributes, which name it to tests and styles */
  rowData?: (item: T) => Record<`data-${string}`, string>
  /** the item's name, which the buttons carry for a screen reader */
  name?: (item: T) => string
  testId?: string
  actionsHeader?: string
  /** other buttons, before the remove button */
  actions?: (item: T) => ComponentChildren
  remove?: Removal<T>
  act?: (request: Promise<Response>) => unknown
}) => (
  <div class="table-wrap" tabIndex={0}>
    <table data-testid={testId}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th scope="col">{column.header}</th>
          ))}
          {(actions || remove) && <th scope="col">{actionsHeader}</th>}
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr {...rowData?.(item)}>
            {columns.map((column) => (
              <td class={column.class?.(item)}>{column.cell(item)}</td>
            ))}
            {(actions || remove) && (
              <td class="actions">
                {actions?.(item)}
                {remove &&
                  (remove.instead?.(item) ?? <RemoveButton item={item} name={name} remove={remove} act={act} />)}
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  </div>
)

const RemoveButton = <T,>({
  item,
  name,
  remove,
  act,
}: {
  item: T
  name: (item: T) => string
  remove: Removal<T>
  act: (request: Promise<Response>) => unknown
}) => (
  <button
    type="button"
    class="danger"
    onClick={() => {
      const question = remove.confirm?.(item)
      if (question === undefined || confirm(question)) void act(remove.run(item))
    }}
  >
    {remove.verb} <span class="visually-hidden">{name(item)}</span>
  </button>
)
