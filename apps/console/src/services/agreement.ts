import type { Language } from '@rampart/contracts';

/** The licence agreement shown on the registration page, in both languages. */
const agreement: Record<Language, { title: string; text: string }> = {
  'zh-CN': {
    title: 'Rampart 软件许可协议',
    text: [
      '1. 本软件按授权码授予使用许可，一个授权码同一时间只绑定一台服务器。',
      '2. 将授权码迁移到另一台服务器会消耗一次迁移次数；迁移次数用完后无法再迁移。',
      '3. 授权到期后，控制台将停止服务直至重新注册；已生效的防护规则继续由内核执行。',
      '4. 注册时向授权服务器发送的仅有授权码和由本机标识计算出的设备 ID，不发送其他数据。',
      '5. 本软件按“现状”提供。请在生产环境使用前自行评估其适用性，并保留可回退的管理通道。',
    ].join('\n'),
  },
  'en-US': {
    title: 'Rampart Software Licence Agreement',
    text: [
      '1. The software is licensed per licence code; one code is bound to one server at a time.',
      '2. Moving a code to another server uses one relocation; when none are left it cannot move again.',
      '3. When the licence expires the console stops serving until it is registered again; rules already in force stay enforced by the kernel.',
      '4. Registration sends the licence server only the code and a device ID derived from this machine’s ID, nothing else.',
      '5. The software is provided "as is". Assess its fitness before production use and keep a fallback way to manage the server.',
    ].join('\n'),
  },
};

export function licenceAgreement(lang: Language): { title: string; text: string } {
  return agreement[lang];
}
