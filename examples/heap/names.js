// The names the name servers hand out, with a number when one repeats.
export const NAMES = [
  'Luke Skywalker', 'Leia Organa', 'Han Solo', 'Chewbacca', 'Obi-Wan Kenobi',
  'Yoda', 'Darth Vader', 'Lando Calrissian', 'Padmé Amidala', 'Mace Windu',
  'Qui-Gon Jinn', 'Ahsoka Tano', 'Boba Fett', 'Jyn Erso', 'Cassian Andor',
  'Poe Dameron', 'Rey', 'Finn', 'Kylo Ren', 'Grand Moff Tarkin',
  'Wedge Antilles', 'Mon Mothma', 'Admiral Ackbar', 'Bodhi Rook', 'Saw Gerrera'
]

export function randomName () {
  return NAMES[Math.floor(Math.random() * NAMES.length)]
}
