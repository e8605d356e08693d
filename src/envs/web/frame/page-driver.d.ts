/** The page driver's bundle as a classic script (vite.config.ts makes it from src/envs/web/driver/). */
declare module 'virtual:page-driver' {
  const script: string;
  export default script;
}
