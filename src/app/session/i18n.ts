/**
 * Strings of the table session, under the `session.` key prefix of the default
 * namespace. Merge with, for example:
 *   for (const [lng, res] of Object.entries(sessionResources))
 *     i18n.addResourceBundle(lng, 'translation', res, true, false);
 */
import type { TFunction } from 'i18next';
import { maxHands, minWinPoints, type SheetRules } from '../../engine/sheet.ts';

export const sessionResources = {
  en: {
    session: {
      loading: 'Loading the score sheet…',
      startTitle: 'Start a table',
      startHelp: 'Enter the four players in their East-round seats. The seats change each round as on the official sheet.',
      playerLabel: 'Player {{n}} ({{wind}} in the East round)',
      start: 'Start table',
      sheet: 'Score sheet',
      tools: 'Score sheet tools',
      undo: 'Undo', redo: 'Redo', undone: 'Undone.', redone: 'Redone.',
      exportCsv: 'Export CSV', exportJson: 'Export JSON', importJson: 'Import JSON',
      imported: 'Imported a sheet with {{n}} hands.',
      importFailed: 'Could not import the file: {{message}}',
      newTable: 'New table', closed: 'Table closed. Undo brings it back.',
      storageError: 'The sheet could not be saved on this device: {{message}}',
      hand: 'Hand', dealer: 'Dealer', what: 'What happened', actions: 'Actions',
      edit: 'Edit', delete: 'Delete',
      editHandN: 'Edit hand {{n}}', deleteHandN: 'Delete hand {{n}}',
      deleted: 'Hand {{n}} deleted. Undo brings it back.',
      added: 'Hand {{n}} added.', edited: 'Hand {{n}} changed.',
      runningAfter: 'Running totals after hand {{n}}',
      total: 'Total', tablePoints: 'Table points', tablePointsSoFar: 'Table points so far',
      nextHand: 'Next: hand {{n}}, {{round}} round, dealer {{dealer}}.',
      complete: 'All {{n}} hands are on the sheet.',
      completeFanPays: 'The game is over: the deal has gone round the table four times.',
      dealerRun: 'Repeat dealership: {{dealer}} deals again (wins in a row: {{n}}).',
      typeHand: 'Type in a hand',
      addHand: 'Hand {{n}}', editHand: 'Edit hand {{n}}',
      result: 'Result', win: 'Win', draw: 'Draw',
      winner: 'Winner', selfDrawn: 'Self-drawn', discarder: 'Discarded by', points: 'Points',
      fans: 'Fans',
      rules: { label: 'Rules', mcr: 'MCR', 'fan-pays': 'Fan Pays', help: { mcr: 'Chinese Official: 8-point minimum; each loser pays 8, the discarder (or all, self-drawn) also the points.', 'fan-pays': 'Scoring card 002: no minimum, paid per fan; self-drawn all three pay, on a discard the discarder pays.' } },
      penalties: 'Penalties', penaltyPlayer: 'Player', penaltyPoints: 'Penalty points',
      penaltySplit: 'Share among the other three', addPenalty: 'Add penalty', removePenalty: 'Remove penalty',
      save: 'Save', add: 'Add to sheet', cancel: 'Cancel',
      verify: 'verify hand',
      source: { scored: 'scored', typed: 'typed in' },
      wind: { E: 'East', S: 'South', W: 'West', N: 'North' },
      describe: {
        draw: 'Draw',
        selfDrawn: '{{winner}} wins {{points}} self-drawn',
        discard: "{{winner}} wins {{points}} on {{discarder}}'s discard",
        selfDrawnFans: '{{winner}} wins {{points}} fans self-drawn',
        selfDrawnFans_one: '{{winner}} wins {{points}} fan self-drawn',
        discardFans: "{{winner}} wins {{points}} fans on {{discarder}}'s discard",
        discardFans_one: "{{winner}} wins {{points}} fan on {{discarder}}'s discard",
        penalty: '{{player}} penalty {{points}}',
        penaltySplit: '{{player}} penalty {{points}} (shared)',
      },
      print: {
        button: 'Print sheet',
        tournament: 'Tournament', date: 'Date', session: 'Session', table: 'Table',
        player: 'Player {{n}}', hand: 'Hand', tableScore: 'Table score', sign: 'Sign',
      },
      error: {
        atHand: 'Hand {{n}}: {{message}}.', alone: '{{message}}.', details: 'Details',
        noTable: 'start a table first',
        playerCount: 'a table needs exactly four players',
        playerName: 'player {{n}} needs a name',
        duplicatePlayer: 'two players have the same name',
        unknownPlayer: '“{{field}}” names someone who is not one of the four players',
        noDiscarder: 'say who discarded the winning tile, or mark the win self-drawn',
        noDiscarderHere: 'a self-drawn win or a draw has no discarder',
        winnerIsDiscarder: 'the winner cannot also be the discarder',
        noWinner: 'a hand needs a winner, or mark it a draw',
        noPoints: 'a win needs its points',
        drawHas: 'a draw has no winner, self-drawn mark or points',
        wholePoints: 'the points must be a whole number',
        minPoints: 'a win needs at least {{min}} points',
        minFans: 'a win needs at least one fan',
        penalty: 'penalty {{n}} must be a whole number of points above 0, and a shared penalty must divide by 3',
        otherRules: 'this hand was scored under {{scored}} rules, but the table plays {{table}}',
        amountsMcr: 'amounts per player are kept only on Fan Pays tables',
        dealerNotTable: 'this hand was scored with another dealer or run of wins than the sheet has for it; on the win screen, use the table\'s dealer and score it again',
        amounts: 'the amounts per player do not balance',
        unknownRules: 'the file names rules this app does not know',
        tooManyHands: 'a sheet holds at most {{max}} hands',
        gameOver: 'the game is over: the deal has gone round the table four times',
        gameEndsEarlier: 'this change would end the game with hand {{end}}, before the hands after it; delete those first',
        dealMoved: 'this change moves the deal: hand {{n}}, scored in the app, would get another dealer; delete hand {{n}} and the hands after it first, then score them again',
        noSuchHand: 'there is no hand {{n}} on this sheet',
        notSheet: 'the file is not a score sheet in JSON',
        missingField: 'the field “{{field}}” is missing',
        badField: 'the field “{{field}}” has the wrong kind of value',
      },
      toSheet: {
        view: 'View the score sheet',
        update: 'Update hand {{n}} on the score sheet, won by {{player}}',
        changed: 'This hand is on the score sheet as hand {{n}}, and it has changed since.',
        updated: 'Hand {{n}} on the score sheet updated.',
        gone: 'This hand was added as hand {{n}}, but it is no longer on the score sheet.',
      },
    },
  },
  pl: {
    session: {
      loading: 'Wczytywanie arkusza…',
      startTitle: 'Rozpocznij stół',
      startHelp: 'Wpisz czterech graczy według miejsc w rundzie Wschodu. Miejsca zmieniają się co rundę, jak na oficjalnym arkuszu.',
      playerLabel: 'Gracz {{n}} ({{wind}} w rundzie Wschodu)',
      start: 'Rozpocznij',
      sheet: 'Arkusz wyników',
      tools: 'Narzędzia arkusza',
      undo: 'Cofnij', redo: 'Ponów', undone: 'Cofnięto.', redone: 'Ponowiono.',
      exportCsv: 'Eksport CSV', exportJson: 'Eksport JSON', importJson: 'Import JSON',
      imported: 'Zaimportowano arkusz z {{n}} rozdaniami.',
      importFailed: 'Nie udało się zaimportować pliku: {{message}}',
      newTable: 'Nowy stół', closed: 'Stół zamknięty. Cofnij, aby go przywrócić.',
      storageError: 'Nie udało się zapisać arkusza na tym urządzeniu: {{message}}',
      hand: 'Rozdanie', dealer: 'Rozdający', what: 'Przebieg', actions: 'Akcje',
      edit: 'Edytuj', delete: 'Usuń',
      editHandN: 'Edytuj rozdanie {{n}}', deleteHandN: 'Usuń rozdanie {{n}}',
      deleted: 'Usunięto rozdanie {{n}}. Cofnij, aby je przywrócić.',
      added: 'Dodano rozdanie {{n}}.', edited: 'Zmieniono rozdanie {{n}}.',
      runningAfter: 'Suma po rozdaniu {{n}}',
      total: 'Suma', tablePoints: 'Table Points', tablePointsSoFar: 'Table Points (na razie)',
      nextHand: 'Następne: rozdanie {{n}}, runda {{round}}, rozdaje {{dealer}}.',
      complete: 'Wszystkie {{n}} rozdań jest w arkuszu.',
      completeFanPays: 'Gra jest skończona: prawo rozdawania obeszło stół cztery razy.',
      dealerRun: 'Rozdający zostaje: {{dealer}} rozdaje dalej (wygrane z rzędu: {{n}}).',
      typeHand: 'Wpisz rozdanie',
      addHand: 'Rozdanie {{n}}', editHand: 'Edytuj rozdanie {{n}}',
      result: 'Wynik', win: 'Wygrana', draw: 'Remis',
      winner: 'Zwycięzca', selfDrawn: 'Wygrana z muru', discarder: 'Zrzucił', points: 'Punkty',
      fans: 'Fany',
      rules: { label: 'Zasady', mcr: 'MCR', 'fan-pays': 'Fan Pays', help: { mcr: 'Chińskie oficjalne: minimum 8 punktów; każdy przegrany płaci 8, zrzucający (lub wszyscy przy wygranej z muru) także punkty.', 'fan-pays': 'Karta 002: bez minimum, płatność za fany; przy wygranej z muru płacą wszyscy trzej, przy zrzutce płaci zrzucający.' } },
      penalties: 'Kary', penaltyPlayer: 'Gracz', penaltyPoints: 'Punkty karne',
      penaltySplit: 'Podziel między pozostałych trzech', addPenalty: 'Dodaj karę', removePenalty: 'Usuń karę',
      save: 'Zapisz', add: 'Dodaj do arkusza', cancel: 'Anuluj',
      verify: 'sprawdź rękę',
      source: { scored: 'policzona', typed: 'wpisana' },
      wind: { E: 'Wschód', S: 'Południe', W: 'Zachód', N: 'Północ' },
      describe: {
        draw: 'Remis',
        selfDrawn: '{{winner}} wygrywa {{points}} z muru',
        discard: '{{winner}} wygrywa {{points}} ze zrzutki gracza {{discarder}}',
        selfDrawnFans: '{{winner}} wygrywa z muru, fany: {{points}}',
        discardFans: '{{winner}} wygrywa ze zrzutki gracza {{discarder}}, fany: {{points}}',
        penalty: '{{player}}: kara {{points}}',
        penaltySplit: '{{player}}: kara {{points}} (podzielona)',
      },
      print: {
        button: 'Drukuj arkusz',
        tournament: 'Turniej', date: 'Data', session: 'Sesja', table: 'Stół',
        player: 'Gracz {{n}}', hand: 'Rozdanie', tableScore: 'Wynik stołu', sign: 'Podpis',
      },
      error: {
        atHand: 'Rozdanie {{n}}: {{message}}.', alone: '{{message}}.', details: 'Szczegóły',
        noTable: 'najpierw rozpocznij stół',
        playerCount: 'stół potrzebuje dokładnie czterech graczy',
        playerName: 'gracz {{n}} musi mieć imię',
        duplicatePlayer: 'dwóch graczy ma to samo imię',
        unknownPlayer: '„{{field}}” wskazuje kogoś spoza czterech graczy',
        noDiscarder: 'wskaż, kto zrzucił kamień wygrywający, albo zaznacz wygraną z muru',
        noDiscarderHere: 'wygrana z muru ani remis nie mają zrzucającego',
        winnerIsDiscarder: 'zwycięzca nie może być jednocześnie zrzucającym',
        noWinner: 'rozdanie potrzebuje zwycięzcy, albo zaznacz remis',
        noPoints: 'wygrana potrzebuje liczby punktów',
        drawHas: 'remis nie ma zwycięzcy, wygranej z muru ani punktów',
        wholePoints: 'punkty muszą być liczbą całkowitą',
        minPoints: 'wygrana wymaga co najmniej {{min}} punktów',
        minFans: 'wygrana wymaga co najmniej jednego fana',
        penalty: 'kara {{n}} musi być całkowitą liczbą punktów większą od 0, a kara dzielona musi być podzielna przez 3',
        otherRules: 'to rozdanie policzono według zasad {{scored}}, a stół gra według {{table}}',
        amountsMcr: 'kwoty poszczególnych graczy zapisuje się tylko przy stołach Fan Pays',
        dealerNotTable: 'to rozdanie policzono z innym rozdającym lub inną liczbą jego wygranych z rzędu niż w arkuszu; na ekranie wygranej użyj rozdającego ze stołu i policz je ponownie',
        amounts: 'kwoty poszczególnych graczy się nie bilansują',
        unknownRules: 'plik podaje zasady, których ta aplikacja nie zna',
        tooManyHands: 'arkusz mieści najwyżej {{max}} rozdań',
        gameOver: 'gra jest skończona: prawo rozdawania obeszło stół cztery razy',
        gameEndsEarlier: 'ta zmiana zakończyłaby grę na rozdaniu {{end}}, przed rozdaniami po nim; najpierw je usuń',
        dealMoved: 'ta zmiana przesuwa rozdającego: rozdanie {{n}}, policzone w aplikacji, miałoby innego rozdającego; najpierw usuń rozdanie {{n}} i następne, potem policz je ponownie',
        noSuchHand: 'w arkuszu nie ma rozdania {{n}}',
        notSheet: 'plik nie jest arkuszem wyników w formacie JSON',
        missingField: 'brak pola „{{field}}”',
        badField: 'pole „{{field}}” ma wartość niewłaściwego rodzaju',
      },
      toSheet: {
        view: 'Pokaż arkusz wyników',
        update: 'Zaktualizuj rozdanie {{n}} w arkuszu wyników, wygrywa {{player}}',
        changed: 'To rozdanie jest w arkuszu jako rozdanie {{n}}, ale od tego czasu zostało zmienione.',
        updated: 'Zaktualizowano rozdanie {{n}} w arkuszu wyników.',
        gone: 'To rozdanie dodano jako rozdanie {{n}}, ale nie ma go już w arkuszu wyników.',
      },
    },
  },
  sv: {
    session: {
      loading: 'Läser in protokollet…',
      startTitle: 'Starta ett bord',
      startHelp: 'Ange de fyra spelarna i sina platser i Östrundan. Platserna byts varje rond som på det officiella protokollet.',
      playerLabel: 'Spelare {{n}} ({{wind}} i Östrundan)',
      start: 'Starta bordet',
      sheet: 'Protokoll',
      tools: 'Verktyg för protokollet',
      undo: 'Ångra', redo: 'Gör om', undone: 'Ångrat.', redone: 'Gjort om.',
      exportCsv: 'Exportera CSV', exportJson: 'Exportera JSON', importJson: 'Importera JSON',
      imported: 'Importerade ett protokoll med {{n}} händer.',
      importFailed: 'Filen kunde inte importeras: {{message}}',
      newTable: 'Nytt bord', closed: 'Bordet stängt. Ångra tar tillbaka det.',
      storageError: 'Protokollet kunde inte sparas på enheten: {{message}}',
      hand: 'Hand', dealer: 'Giv', what: 'Vad hände', actions: 'Åtgärder',
      edit: 'Ändra', delete: 'Ta bort',
      editHandN: 'Ändra hand {{n}}', deleteHandN: 'Ta bort hand {{n}}',
      deleted: 'Hand {{n}} borttagen. Ångra tar tillbaka den.',
      added: 'Hand {{n}} tillagd.', edited: 'Hand {{n}} ändrad.',
      runningAfter: 'Ställning efter hand {{n}}',
      total: 'Summa', tablePoints: 'Bordspoäng', tablePointsSoFar: 'Bordspoäng hittills',
      nextHand: 'Nästa: hand {{n}}, {{round}}rundan, giv {{dealer}}.',
      complete: 'Alla {{n}} händer är i protokollet.',
      completeFanPays: 'Spelet är slut: given har gått runt bordet fyra gånger.',
      dealerRun: 'Given stannar: {{dealer}} ger igen (vinster i rad: {{n}}).',
      typeHand: 'Skriv in en hand',
      addHand: 'Hand {{n}}', editHand: 'Ändra hand {{n}}',
      result: 'Resultat', win: 'Mahjong', draw: 'Oavgjort',
      winner: 'Vinnare', selfDrawn: 'Självdragen', discarder: 'Sakad från', points: 'Poäng',
      fans: 'Fan',
      rules: { label: 'Regler', mcr: 'MCR', 'fan-pays': 'Fan Pays', help: { mcr: 'Kinesiska officiella: minst 8 poäng; varje förlorare betalar 8, den som sakade (eller alla vid självdragen) även poängen.', 'fan-pays': 'Poängkort 002: ingen minimigräns, betalning per fan; självdragen betalar alla tre, vid sakning betalar den som sakade.' } },
      penalties: 'Straff', penaltyPlayer: 'Spelare', penaltyPoints: 'Straffpoäng',
      penaltySplit: 'Dela på de andra tre', addPenalty: 'Lägg till straff', removePenalty: 'Ta bort straff',
      save: 'Spara', add: 'Lägg till i protokollet', cancel: 'Avbryt',
      verify: 'kontrollera handen',
      source: { scored: 'räknad', typed: 'inskriven' },
      wind: { E: 'Öst', S: 'Syd', W: 'Väst', N: 'Nord' },
      describe: {
        draw: 'Oavgjort',
        selfDrawn: '{{winner}} vinner {{points}} självdragen',
        discard: '{{winner}} vinner {{points}} på sakning från {{discarder}}',
        selfDrawnFans: '{{winner}} vinner {{points}} fan självdragen',
        discardFans: '{{winner}} vinner {{points}} fan på sakning från {{discarder}}',
        penalty: '{{player}} straff {{points}}',
        penaltySplit: '{{player}} straff {{points}} (delat)',
      },
      print: {
        button: 'Skriv ut protokollet',
        tournament: 'Turnering', date: 'Datum', session: 'Omgång', table: 'Bord',
        player: 'Spelare {{n}}', hand: 'Hand', tableScore: 'Bordsställning', sign: 'Signatur',
      },
      error: {
        atHand: 'Hand {{n}}: {{message}}.', alone: '{{message}}.', details: 'Detaljer',
        noTable: 'starta ett bord först',
        playerCount: 'ett bord behöver exakt fyra spelare',
        playerName: 'spelare {{n}} behöver ett namn',
        duplicatePlayer: 'två spelare har samma namn',
        unknownPlayer: '”{{field}}” är inte en av de fyra spelarna',
        noDiscarder: 'ange vem som sakade vinstbrickan, eller markera vinsten som självdragen',
        noDiscarderHere: 'en självdragen vinst eller en oavgjord hand har ingen som sakat',
        winnerIsDiscarder: 'vinnaren kan inte också vara den som sakade',
        noWinner: 'en hand behöver en vinnare, eller markera den som oavgjord',
        noPoints: 'en vinst behöver sina poäng',
        drawHas: 'en oavgjord hand har ingen vinnare, inget självdrag och inga poäng',
        wholePoints: 'poängen måste vara ett heltal',
        minPoints: 'en vinst behöver minst {{min}} poäng',
        minFans: 'en vinst behöver minst en fan',
        penalty: 'straff {{n}} måste vara ett heltal över 0, och ett delat straff måste vara delbart med 3',
        otherRules: 'handen räknades med {{scored}}-regler, men bordet spelar {{table}}',
        amountsMcr: 'belopp per spelare sparas bara vid Fan Pays-bord',
        dealerNotTable: 'handen räknades med en annan givare eller ett annat antal vinster i rad än protokollet har för den; använd bordets givare på vinstskärmen och räkna igen',
        amounts: 'beloppen per spelare går inte jämnt ut',
        unknownRules: 'filen anger regler som appen inte känner till',
        tooManyHands: 'ett protokoll rymmer högst {{max}} händer',
        gameOver: 'spelet är slut: given har gått runt bordet fyra gånger',
        gameEndsEarlier: 'ändringen skulle avsluta spelet med hand {{end}}, före händerna efter den; ta bort dem först',
        dealMoved: 'ändringen flyttar given: hand {{n}}, räknad i appen, skulle få en annan givare; ta bort hand {{n}} och händerna efter den först och räkna dem sedan igen',
        noSuchHand: 'det finns ingen hand {{n}} i protokollet',
        notSheet: 'filen är inte ett protokoll i JSON',
        missingField: 'fältet ”{{field}}” saknas',
        badField: 'fältet ”{{field}}” har fel sorts värde',
      },
      toSheet: {
        view: 'Visa poängbladet',
        update: 'Uppdatera giv {{n}} i poängbladet, vunnen av {{player}}',
        changed: 'Handen finns i poängbladet som giv {{n}}, men den har ändrats sedan dess.',
        updated: 'Giv {{n}} i poängbladet uppdaterad.',
        gone: 'Handen lades till som giv {{n}}, men den finns inte längre i poängbladet.',
      },
    },
  },
  zh: {
    session: {
      loading: '正在读取计分表…',
      startTitle: '开始一桌',
      startHelp: '按东风圈的座位输入四位玩家。每圈按官方计分表换座。',
      playerLabel: '玩家 {{n}}（东风圈坐{{wind}}）',
      start: '开始',
      sheet: '计分表',
      tools: '计分表工具',
      undo: '撤销', redo: '重做', undone: '已撤销。', redone: '已重做。',
      exportCsv: '导出 CSV', exportJson: '导出 JSON', importJson: '导入 JSON',
      imported: '已导入计分表，共 {{n}} 盘。',
      importFailed: '无法导入文件：{{message}}',
      newTable: '新的一桌', closed: '已关闭此桌。撤销可恢复。',
      storageError: '无法在本设备上保存计分表：{{message}}',
      hand: '盘', dealer: '庄家', what: '经过', actions: '操作',
      edit: '修改', delete: '删除',
      editHandN: '修改第 {{n}} 盘', deleteHandN: '删除第 {{n}} 盘',
      deleted: '已删除第 {{n}} 盘。撤销可恢复。',
      added: '已添加第 {{n}} 盘。', edited: '已修改第 {{n}} 盘。',
      runningAfter: '第 {{n}} 盘后累计',
      total: '合计', tablePoints: '标准分', tablePointsSoFar: '目前标准分',
      nextHand: '下一盘：第 {{n}} 盘，{{round}}风圈，庄家 {{dealer}}。',
      complete: '全部 {{n}} 盘已记录。',
      completeFanPays: '整场已结束：庄家已轮转四圈。',
      dealerRun: '连庄：{{dealer}} 继续坐庄（连胜 {{n}} 盘）。',
      typeHand: '手动输入一盘',
      addHand: '第 {{n}} 盘', editHand: '修改第 {{n}} 盘',
      result: '结果', win: '和牌', draw: '荒庄',
      winner: '和牌者', selfDrawn: '自摸', discarder: '点炮者', points: '番数',
      fans: '番数',
      rules: { label: '规则', mcr: '国标', 'fan-pays': '番付', help: { mcr: '国标麻将：8 番起和；每家付 8 分，点炮者（自摸时三家）另付番数。', 'fan-pays': '计分卡 002：无起和番，按番付款；自摸三家都付，点和由放铳者付。' } },
      penalties: '罚分', penaltyPlayer: '玩家', penaltyPoints: '罚分',
      penaltySplit: '由其他三家平分', addPenalty: '添加罚分', removePenalty: '删除罚分',
      save: '保存', add: '加入计分表', cancel: '取消',
      verify: '核对牌',
      source: { scored: '计分', typed: '手填' },
      wind: { E: '东', S: '南', W: '西', N: '北' },
      describe: {
        draw: '荒庄',
        selfDrawn: '{{winner}} 自摸 {{points}} 番',
        discard: '{{winner}} 和 {{discarder}} 点炮 {{points}} 番',
        selfDrawnFans: '{{winner}} 自摸 {{points}} 番',
        discardFans: '{{winner}} 和 {{discarder}} 点炮 {{points}} 番',
        penalty: '{{player}} 罚 {{points}} 分',
        penaltySplit: '{{player}} 罚 {{points}} 分（分给其他三家）',
      },
      print: {
        button: '打印计分表',
        tournament: '比赛', date: '日期', session: '场次', table: '桌号',
        player: '玩家 {{n}}', hand: '盘', tableScore: '本桌成绩', sign: '签名',
      },
      error: {
        atHand: '第 {{n}} 盘：{{message}}。', alone: '{{message}}。', details: '详情',
        noTable: '请先开始一桌',
        playerCount: '一桌需要正好四位玩家',
        playerName: '玩家 {{n}} 需要名字',
        duplicatePlayer: '有两位玩家同名',
        unknownPlayer: '“{{field}}”不是这四位玩家之一',
        noDiscarder: '请选择点炮者，或标记为自摸',
        noDiscarderHere: '自摸或荒庄没有点炮者',
        winnerIsDiscarder: '和牌者不能同时是点炮者',
        noWinner: '一盘需要和牌者，或标记为荒庄',
        noPoints: '和牌需要填写番数',
        drawHas: '荒庄没有和牌者、自摸或番数',
        wholePoints: '番数必须是整数',
        minPoints: '和牌至少需要 {{min}} 番',
        minFans: '和牌至少需要 1 番',
        penalty: '第 {{n}} 项罚分必须是大于 0 的整数，由其他三家平分的罚分还必须能被 3 整除',
        otherRules: '这手牌按{{scored}}规则计分，但本桌使用{{table}}规则',
        amountsMcr: '只有番付牌桌才记录每位玩家的金额',
        dealerNotTable: '此盘计分时的庄家或连庄次数与计分表不符；请在和牌条件页使用牌桌的庄家后重新计分',
        amounts: '每位玩家的金额合计不为零',
        unknownRules: '文件中的规则本应用不认识',
        tooManyHands: '一张计分表最多 {{max}} 盘',
        gameOver: '整场已结束：庄家已轮转四圈',
        gameEndsEarlier: '此修改会使整场在第 {{end}} 盘结束，之后的各盘将无处记录；请先删除它们',
        dealMoved: '此修改会改变坐庄：在应用中计分的第 {{n}} 盘将换成另一位庄家；请先删除第 {{n}} 盘及之后各盘，再重新计分',
        noSuchHand: '计分表中没有第 {{n}} 盘',
        notSheet: '该文件不是 JSON 格式的计分表',
        missingField: '缺少字段“{{field}}”',
        badField: '字段“{{field}}”的值类型不对',
      },
      toSheet: {
        view: '查看计分表',
        update: '更新计分表第 {{n}} 盘，{{player}} 和牌',
        changed: '这手牌已作为第 {{n}} 盘记入计分表，之后又有修改。',
        updated: '已更新计分表第 {{n}} 盘。',
        gone: '这手牌曾作为第 {{n}} 盘加入，但计分表上已没有这一盘。',
      },
    },
  },
} as const;

export type SessionLanguage = keyof typeof sessionResources;

/** What the app knows of a refused sheet change: a SheetError, or the result screen's NO_TABLE. */
export interface SheetProblem {
  code: string;
  /** 1-based hand, or null for the sheet as a whole. */
  hand?: number | null;
  /** The field the engine names, e.g. `discarder` or `penalties[0].points`. */
  field?: string | null;
}

export interface SheetProblemContext {
  /** The table's ruleset (the least points a win needs). */
  rules?: SheetRules;
  /** The ruleset that scored the hand, when a scored hand was refused for the table's rules. */
  scored?: string;
  /** Reading a file: missing or wrong fields are named, as the file spells them. */
  importing?: boolean;
  /** The message goes inside another sentence ("Could not import the file: ..."), so it keeps its lower case. */
  embedded?: boolean;
}

/** The number in a field such as `players[2]` or `penalties[0].points`, 1-based. */
const nthOf = (field: string | null | undefined): number => {
  const m = /\[(\d+)\]/.exec(field ?? '');
  return m ? Number(m[1]) + 1 : 1;
};

/**
 * A refused sheet change in the player's language. The engine's SheetError
 * messages stay English and technical for the CLI (`hand 1, field "discarder":
 * ...`); the app says what is wrong in words, from the error's code and field.
 */
export function sheetErrorMessage(t: TFunction, e: SheetProblem, ctx: SheetProblemContext = {}): string {
  const field = e.field ?? null;
  const k = (key: string, values?: Record<string, string | number>) => t(`session.error.${key}`, values ?? {});
  const rulesName = (r: string) => t(`session.rules.${r}`, { defaultValue: r });
  let message: string;
  let atHand = e.hand ?? null;
  switch (e.code) {
    case 'NO_TABLE': message = k('noTable'); break;
    case 'WRONG_PLAYER_COUNT': message = k('playerCount'); break;
    case 'INVALID_PLAYER_NAME': message = k('playerName', { n: nthOf(field) }); break;
    case 'DUPLICATE_PLAYER': message = k('duplicatePlayer'); break;
    case 'UNKNOWN_PLAYER': message = k('unknownPlayer', { field: field ?? '' }); break;
    case 'WINNER_IS_DISCARDER': message = k('winnerIsDiscarder'); break;
    case 'INVALID_POINTS': message = k('wholePoints'); break;
    case 'POINTS_BELOW_MINIMUM':
      message = ctx.rules === 'fan-pays' ? k('minFans') : k('minPoints', { min: minWinPoints('mcr') });
      break;
    case 'INVALID_PENALTY': message = k('penalty', { n: nthOf(field) }); break;
    case 'TOO_MANY_HANDS': message = k('tooManyHands', { max: maxHands(ctx.rules) }); atHand = null; break;
    case 'GAME_OVER':
      // an edit or deletion that would end the game before hands already on the sheet
      if (field === 'edit' && e.hand) { message = k('gameEndsEarlier', { end: e.hand - 1 }); atHand = null; }
      else { message = k('gameOver'); atHand = null; }
      break;
    case 'DEAL_MOVED': message = k('dealMoved', { n: e.hand ?? '' }); atHand = null; break;
    case 'NO_SUCH_HAND': message = k('noSuchHand', { n: e.hand ?? '' }); atHand = null; break;
    case 'MISSING_FIELD':
      if (field === 'discarder') message = k('noDiscarder');
      else if (field === 'winner') message = k('noWinner');
      else if (field === 'points') message = k('noPoints');
      // The sheet's commands name "players" when no table is open.
      else if (field === 'players' && !ctx.importing) message = k('noTable');
      else message = k('missingField', { field: field ?? '' });
      break;
    case 'CONFLICTING_FIELDS':
      if (field === 'discarder') message = k('noDiscarderHere');
      else if (field === 'winner' || field === 'self_drawn' || field === 'points') message = k('drawHas');
      else if (field === 'amounts') message = k('amountsMcr');
      else if (field === 'dealer') message = k('dealerNotTable');
      else if (field === 'rules') {
        const table = ctx.rules ?? 'mcr';
        message = k('otherRules', { scored: rulesName(ctx.scored ?? (table === 'mcr' ? 'fan-pays' : 'mcr')), table: rulesName(table) });
      } else message = k('badField', { field: field ?? '' });
      break;
    default:
      // MALFORMED_RECORD, and any code the engine adds later.
      if (field === 'amounts') message = k('amounts');
      else if (field === 'rules') message = k('unknownRules');
      else if (field === null && atHand === null) message = k('notSheet');
      else message = k('badField', { field: field ?? 'hands' });
  }
  const sentence = atHand !== null ? k('atHand', { n: atHand, message }) : k('alone', { message });
  // The messages start in lower case to follow "Hand 1: "; alone, the sentence starts with a capital.
  return atHand !== null || ctx.embedded ? sentence : sentence.charAt(0).toLocaleUpperCase() + sentence.slice(1);
}
