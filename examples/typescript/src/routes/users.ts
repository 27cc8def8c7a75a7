// A route whose cost is one CPU-bound function, `rankUsers`: with source maps
// applied, the flamegraph names it at this file and line, not in the
// JavaScript that tsx or tsc made of it.
export interface User {
  id: number
  name: string
  score: number
}

export function rankUsers (count: number): User[] {
  const users: User[] = []
  for (let id = 0; id < count; id++) {
    let score = id
    for (let round = 0; round < 200; round++) {
      score = (score * 1103515245 + 12345) % 2147483648
    }
    users.push({ id, name: `user-${id}`, score })
  }
  return users.sort((a, b) => b.score - a.score)
}

export function usersPage (count: number): string {
  const top = rankUsers(count).slice(0, 3)
  return JSON.stringify(top.map((user: User) => user.name))
}
